// The formatter step of the boundary family's writes, one rule for file_patch and file_write: at
// commit (never for a preview), the first enabled formatter whose globs match the file's path
// relative to the root runs over the bytes about to be written (io/formatter.ts: on the bytes or a
// staged copy outside the tree, never the live file); a failure is `format_failed` and nothing is
// written. Formatting off, or no formatter matching: the bytes go out as they are.

import path from 'node:path';
import { selectFormatter } from '../../core/config/format-select.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { formatCandidate } from '../../io/formatter.js';
import type { Engine } from '../engine.js';

export interface Formatted {
  readonly bytes: Uint8Array;
  /** The formatter that ran, when one did. */
  readonly formatter?: string;
}

export async function formatForCommit(engine: Engine, rp: ResolvedPath, bytes: Uint8Array, signal: AbortSignal): Promise<Formatted> {
  const rel = path.relative(engine.guard.realRoot, rp.real).split(path.sep).join('/');
  const spec = selectFormatter(engine.configState().settings.formatters, rel);
  if (!spec) return { bytes };
  const out = await formatCandidate(spec, bytes, { source: rp.real, display: rp.display, root: engine.guard.realRoot, guard: engine.guard, signal });
  return { bytes: out, formatter: spec.name };
}
