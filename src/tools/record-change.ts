// What every tool does after it changed a file on disk: the versions before and after go to the
// history (so fs_rollback can undo a change of either family), and caches of the old content are
// dropped. Texts the history cannot hold (binary, too large) are skipped, as the history does.

import { parseDocAndText } from '../core/text-doc.js';
import { forgetFile } from '../lang/symbol-search.js';
import type { Engine } from './engine.js';

function textOf(engine: Engine, bytes: Uint8Array): string | null {
  // a text longer in bytes than the history keeps is not decoded at all
  if (bytes.length > engine.history.limits.maxSnapshotBytes * 3 || bytes.includes(0)) return null;
  return parseDocAndText(bytes).text;
}

/**
 * Records `before` (when the file existed) and `after` (when it still exists) of the file at `real`.
 * Returns the tag `before` was kept under (null: not kept).
 */
export function recordChange(engine: Engine, real: string, before: Uint8Array | undefined, after: Uint8Array | undefined): string | null {
  forgetFile(real);
  const old = before === undefined ? null : textOf(engine, before);
  let kept: string | null = null;
  if (old !== null) {
    kept = engine.history.record(real, old);
    engine.history.reanchor(real, old);
  }
  const now = after === undefined ? null : textOf(engine, after);
  if (now !== null) engine.history.record(real, now);
  return kept;
}
