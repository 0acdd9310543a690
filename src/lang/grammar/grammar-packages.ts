// Where the @ast-grep/lang-* grammar packages are found. A default install ships a few of them as
// dependencies; the others are added by `hashline lang add NAME`, which installs the package into
// a folder under the user's data directory (the same folder whichever way hashline was installed:
// globally, with npx, or in a project). Both places are looked in, hashline's own first.

import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** npm version ranges of the grammar packages `hashline lang add` installs (a test keeps them equal to package.json). */
export const GRAMMAR_VERSIONS: Readonly<Record<string, string>> = Object.freeze({
  bash: '^0.0.8',
  c: '^0.0.6',
  cpp: '^0.0.6',
  csharp: '^0.0.6',
  dart: '^0.0.7',
  elixir: '^0.0.7',
  go: '^0.0.6',
  haskell: '^0.0.3',
  java: '^0.0.7',
  json: '^0.0.6',
  kotlin: '^0.0.7',
  lua: '^0.0.7',
  markdown: '^0.0.3',
  php: '^0.0.7',
  python: '^0.0.6',
  ruby: '^0.0.7',
  rust: '^0.0.7',
  scala: '^0.0.7',
  sql: '^0.0.8',
  swift: '^0.0.8',
  toml: '^0.0.5',
  yaml: '^0.0.6',
});

/**
 * The folder `hashline lang add` installs grammars into: `$HASHLINE_GRAMMAR_DIR`, else
 * `$XDG_DATA_HOME/hashline/grammars`, else `~/.local/share/hashline/grammars`.
 */
export function grammarDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env.HASHLINE_GRAMMAR_DIR;
  if (own !== undefined && own !== '') return path.resolve(own);
  const xdg = env.XDG_DATA_HOME;
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? os.homedir(), '.local', 'share');
  return path.join(base, 'hashline', 'grammars');
}

export type GrammarSource = 'package' | 'user';

export interface LocatedGrammar {
  /** The module's entry file. */
  readonly entry: string;
  /** `package`: installed with hashline; `user`: installed by `hashline lang add`. */
  readonly source: GrammarSource;
}

const ownRequire = createRequire(import.meta.url);

/** Where the grammar package `pkg` is installed, or undefined (nothing is loaded). */
export function locateGrammar(pkg: string, dir: string = grammarDir()): LocatedGrammar | undefined {
  try {
    return { entry: ownRequire.resolve(pkg), source: 'package' };
  } catch {
    // not installed with hashline
  }
  try {
    return { entry: createRequire(path.join(dir, 'package.json')).resolve(pkg), source: 'user' };
  } catch {
    return undefined;
  }
}

/** Loads a located grammar package (its `libraryPath` and registration fields). */
export function loadGrammar(found: LocatedGrammar): { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string } {
  return ownRequire(found.entry) as { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string };
}
