// Which configured formatter takes a file, and the argv it runs with. A glob without `/` matches
// the file's base name at any depth (`*.py`), one with `/` the path relative to the root
// (`src/**/*.ts`); dot files match. The first enabled formatter whose globs match wins.
// Placeholders in the command: `{file}` the file the formatter reads (the real path in stdout
// mode, the staged copy in in_place mode), `{source}` the real path of the file being patched,
// `{root}` the project root.

import picomatch from 'picomatch';
import type { FormatterSpec } from './config-schema.js';

const matchers = new WeakMap<FormatterSpec, (rel: string) => boolean>();

function matcherOf(spec: FormatterSpec): (rel: string) => boolean {
  let m = matchers.get(spec);
  if (!m) {
    const each = spec.globs.map((g) => picomatch(g, { dot: true, basename: !g.includes('/') }));
    m = (rel) => each.some((f) => f(rel));
    matchers.set(spec, m);
  }
  return m;
}

/** `rel`: the file's path relative to the root, with `/` separators. */
export function selectFormatter(formatters: readonly FormatterSpec[], rel: string): FormatterSpec | undefined {
  return formatters.find((f) => matcherOf(f)(rel));
}

export function formatterArgv(spec: FormatterSpec, at: { file: string; source: string; root: string }): string[] {
  return spec.command.map((a) => a.replaceAll('{file}', at.file).replaceAll('{source}', at.source).replaceAll('{root}', at.root));
}
