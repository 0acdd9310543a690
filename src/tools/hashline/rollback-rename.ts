// fs_rollback of a renamed file: when the last change logged at a path is its rename from another
// (file_rename moves a file's versions with it), "" (or the tag already on disk) undoes that change
// by moving the file back to its old name, unchanged, as file_rename would: never onto an existing
// file, under both locks, the history moved back with it. Undefined when the rule does not apply.

import { createHash } from 'node:crypto';
import { displayPath } from '../../core/config/path-policy.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import * as msg from '../../core/messages/rollback.js';
import { formatHeader } from '../../core/text/tag.js';
import { commitBatch } from '../../io/batch/batch-commit.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { readAdmitted } from '../../io/guard/read-admission.js';
import { loadTextFile, type LoadedFile } from '../../io/read/text-file.js';
import type { Engine } from '../engine.js';
import { recordRename } from '../record-change.js';
import type { RollbackResult } from './hashline-results.js';

const wanted = (hash: string): string => hash.trim().replace(/^.*#/, '').toUpperCase();

export async function undoRename(engine: Engine, rp: ResolvedPath, hash: string, signal: AbortSignal | undefined): Promise<RollbackResult | undefined> {
  const from = await engine.history.renamedFrom?.(rp.real);
  if (from === undefined) return undefined;
  let back: ResolvedPath;
  try {
    back = await engine.guard.resolve(displayPath(from, engine.guard.realRoot), 'write');
  } catch {
    return undefined; // the old name is refused now: rollback goes on as for any file
  }
  const hidden = !readAdmitted(engine.guard, rp);
  if (hidden && readAdmitted(engine.guard, back)) return undefined;
  return engine.locks.withLocks(
    [rp.real, back.real],
    async (): Promise<RollbackResult | undefined> => {
      let disk: LoadedFile;
      try {
        disk = await loadTextFile(engine.guard, rp, 'write');
      } catch (e) {
        if (toHashlineError(e).code === 'not_found') return undefined;
        throw e;
      }
      const want = wanted(hash);
      if (want !== '' && want !== disk.tag) return undefined;
      // changed since the rename (not yet logged): that change is the last one, not the rename
      const head = engine.history.head(rp.real);
      if (head !== undefined && head.text !== disk.text) return undefined;
      const sha256 = createHash('sha256').update(disk.bytes).digest('hex');
      try {
        await commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: rp, to: back, expectedSha256: sha256, createParents: true }], {
          requireHash: true,
          signal,
          locksHeld: true,
        });
      } catch (e) {
        const err = toHashlineError(e);
        if (err.code !== 'already_exists') throw e;
        throw new HashlineError('already_exists', msg.renameNotUndone(rp.display, back.display), {
          details: { path: rp.display, destination: back.display },
        });
      }
      recordRename(engine, rp.real, back.real);
      return {
        path: back.display,
        file_hash: hidden ? '' : disk.tag,
        header: hidden ? `¶${back.display}` : formatHeader(back.display, disk.tag),
        replaced_hash: hidden ? '' : disk.tag,
        warning: hidden ? `${msg.renameUndone(rp.display, back.display)}; ${msg.TAGS_HIDDEN}` : msg.renameUndone(rp.display, back.display),
      };
    },
    { signal },
  );
}
