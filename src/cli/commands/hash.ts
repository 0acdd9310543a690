// `hashline hash PATH...`: the SHA-256 of each file's bytes and its 4-hex tag (the TAG of ¶path#TAG),
// both streamed. The text is recorded in the history kept across runs, so `hashline edit --tag`
// accepts the tag shown.

import { toHashlineError } from '../../core/errors/errors.js';
import { loadTextFile } from '../../io/read/text-file.js';
import { loadLines } from '../../io/read/read-lines.js';
import { sha256File } from '../../io/read/sha256-file.js';
import { usageError } from '../options.js';
import { EXIT_OK, EXIT_REFUSED, json, openLocal, out, shown, style, warn } from './local-engine.js';

interface Hashed {
  path: string;
  sha256?: string;
  tag?: string;
  size?: number;
  error?: { code: string; message: string };
}

export async function hashCommand(argv: string[]): Promise<void> {
  const { engine, values, positionals } = await openLocal('hash', argv, {});
  if (positionals.length === 0) throw usageError('hash', 'give at least one PATH');
  const results: Hashed[] = [];
  for (const p of positionals) {
    try {
      const rp = await engine.guard.resolve(p, 'read');
      const { sha256, size } = await sha256File(engine.guard, rp);
      const { tag } = await loadLines(engine.guard, rp, { want: () => false });
      if (size <= engine.history.limits.maxSnapshotBytes) {
        const loaded = await loadTextFile(engine.guard, rp);
        if (loaded.tag === tag) engine.history.record(rp.real, loaded.text);
      }
      results.push({ path: rp.display, sha256, tag, size });
    } catch (e) {
      const err = toHashlineError(e);
      results.push({ path: p, error: { code: err.code, message: err.message } });
    }
  }
  if (values.json) json({ results });
  else
    for (const r of results) {
      if (r.error) warn(`${r.path}: [${r.error.code}] ${r.error.message}`);
      else out(`${r.sha256}  ${style.header(r.tag!)}  ${shown(r.path)}`);
    }
  process.exitCode = results.some((r) => r.error) ? EXIT_REFUSED : EXIT_OK;
}
