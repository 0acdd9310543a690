// All-or-nothing changes to 1-50 files (the boundary family's mutation batches). In order:
// 1. no endpoint may be named twice (a rename chain or swap is two calls, not one);
// 2. every endpoint is locked (sorted, de-duplicated: engine.locks);
// 3. preflight, before any side effect: each file's state is journaled (hash, mode, owner, dev+ino)
//    and checked against the caller's expected SHA-256 (compare-and-swap); rename destinations
//    must be free;
// 4. the changes are applied in order (io/batch/batch-steps.ts), each after its file is opened again and
//    proven to be the journaled one (identity and content); cancellation is looked at between files.
//    A write that comes first, with nothing run between its preflight and itself (no hook), has
//    just had that look: its preflight's; the write still proves the identity (its backup link);
// 5. on a failure or cancellation the applied changes are undone in reverse; an undo that fails
//    makes the error `rollback_incomplete` with a code per affected path (from the code table);
// 6. on success the backups are dropped (a replaced file's, when the caller asks, in the thread pool
//    while it goes on: `frees`); once the locks are released, the parents deleted files left empty
//    are removed.

import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { MAX_BATCH_FILES } from '../../core/config/config.js';
import { HashlineError, toHashlineError, type ErrorCode } from '../../core/errors/errors.js';
import { readAdmitted } from '../guard/read-admission.js';
import { rollbackIncomplete } from '../../core/messages/write.js';
import { linkRefused } from '../../core/messages/guard.js';
import { checkExpected, occupied, readState, reopenChecked, type FileState } from './batch-state.js';
import type { ChangeOutcome, FileChange } from './batch-change.js';
import { statKeyNow } from '../read/read-verified-sync.js';
import { applyChange, type Undo } from './batch-steps.js';

export type { Attributes, ChangeOutcome, FileChange } from './batch-change.js';
import { removeEmptyParents } from './empty-parents.js';
import type { LockManager } from '../locks/file-lock.js';
import type { VerifiedHandle } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

export interface BatchOptions {
  /** Require an expected SHA-256 for every existing file touched (default true). */
  requireHash?: boolean;
  signal?: AbortSignal | undefined;
  progress?: (done: number, total: number) => void;
  /** Hand back the old bytes of files up to this size in each outcome (`before`), e.g. for the history. */
  keepBefore?: number;
  /** Runs after the preflight of every file, under the locks, before the first change (a last veto). */
  afterPreflight?: (() => Promise<void>) | undefined;
  /** Test seam: called before change i is applied. */
  beforeApply?: ((index: number) => Promise<void> | void) | undefined;
  /** The caller already holds the locks of every path (engine.locks.withLocks), e.g. to read and compute under them. */
  locksHeld?: boolean;
  /**
   * Given: the backups of replaced files are removed in the thread pool, each removal's promise
   * pushed here, while the caller goes on (its history, its reply); it awaits them before it
   * replies, so no backup outlives the call. Removed files' backups are removed before the batch returns.
   */
  frees?: Promise<void>[];
}


const primary = (c: FileChange): ResolvedPath => (c.kind === 'rename' ? c.from : c.rp);
const endpoints = (c: FileChange): ResolvedPath[] => (c.kind === 'rename' ? [c.from, c.to] : [c.rp]);

/** The error with the failing file named in its details (`filePath`) and what the batch did about it. */
function naming(e: unknown, filePath: string, extra: Record<string, unknown>): HashlineError {
  const cause = toHashlineError(e);
  return new HashlineError(cause.code, cause.message, {
    details: { filePath, ...(cause.details ?? {}), ...extra },
    retryable: cause.retryable,
    ...(cause.suggestedNextCall === undefined ? {} : { suggestedNextCall: cause.suggestedNextCall }),
    cause,
  });
}

/** A bounded code for an undo that failed: a code of the table, never an operating-system text. */
function undoCode(e: unknown): ErrorCode {
  if (e instanceof HashlineError) return e.code;
  const errno = (e as NodeJS.ErrnoException)?.code;
  if (errno === 'EEXIST') return 'already_exists';
  if (errno === 'ENOENT' || errno === 'ENOTDIR') return 'not_found';
  if (errno === 'ELOOP') return 'link_swapped';
  return 'io_error';
}

/** Refuses a batch that names one file twice, in any role. */
function checkEndpoints(changes: readonly FileChange[]): void {
  const seen = new Map<string, string>();
  for (const c of changes) {
    if (c.kind === 'rename' && c.from.real === c.to.real) {
      throw new HashlineError('invalid_arguments', `\`${c.from.display}\` and \`${c.to.display}\` are the same file: nothing to rename`, { details: { filePath: c.from.display } });
    }
    for (const [i, rp] of endpoints(c).entries()) {
      const role = c.kind === 'rename' ? (i === 0 ? `the source of a rename` : `the destination of the rename of \`${c.from.display}\``) : `a ${c.kind}`;
      const earlier = seen.get(rp.real);
      if (earlier !== undefined) {
        throw new HashlineError('invalid_arguments', `\`${rp.display}\` is named twice in one batch (${earlier}, and ${role}); a batch names each file once: split chains and swaps into separate calls`, {
          details: { filePath: rp.display },
        });
      }
      seen.set(rp.real, role);
    }
  }
}

/** Preflight of one change: its journaled state, checked against the caller's hash. */
async function preflight(guard: PathGuard, c: FileChange, requireHash: boolean, keep: number, signal?: AbortSignal): Promise<FileState> {
  const rp = primary(c);
  // the boundary family changes no file through a link (the tools refuse one first; this holds for any caller)
  if (rp.viaLink) {
    const target = guard.display(rp.real);
    throw new HashlineError('not_regular_file', linkRefused(rp.display, target), { details: { filePath: rp.display, path: rp.display, reason: 'symlink', target } });
  }
  const known = c.kind === 'write' && c.expectedBytes !== undefined && c.expectedSha256 !== undefined ? { bytes: c.expectedBytes, sha256: c.expectedSha256.toLowerCase() } : undefined;
  const state = await readState(guard, rp, keep, signal, known);
  checkExpected(rp, state, c.expectedSha256, { requireHash, mayCreate: c.kind === 'write', hidden: !readAdmitted(guard, rp) });
  if (c.kind === 'rename' && (await occupied(c.to))) {
    throw new HashlineError('already_exists', `\`${c.to.display}\` already exists`, { details: { path: c.to.display } });
  }
  return state;
}

/** A path that could not be put back: its code, and where its previous bytes still are (a backup left for the user). */
type FailedUndo = { path: string; code: ErrorCode; kept?: string };

/** Undoes `undos` in reverse; returns the paths restored and those that could not be. */
async function rollBack(guard: PathGuard, undos: Undo[]): Promise<{ restored: string[]; failed: FailedUndo[] }> {
  const restored: string[] = [];
  const failed: FailedUndo[] = [];
  for (const u of [...undos].reverse()) {
    try {
      await u.run();
      restored.push(u.path);
    } catch (e) {
      const left = u.kept !== undefined && lstatSync(u.kept, { throwIfNoEntry: false }) !== undefined;
      failed.push({ path: u.path, code: undoCode(e), ...(left ? { kept: guard.display(u.kept!) } : {}) });
    }
  }
  return { restored: restored.reverse(), failed: failed.reverse() };
}

/**
 * Applies every change or none. Throws the first failure, naming its file (`details.filePath`); after
 * a failure part-way, `details.restored` lists the files put back as they were.
 */
export async function commitBatch(
  guard: PathGuard,
  locks: LockManager,
  changes: readonly FileChange[],
  options: BatchOptions = {},
): Promise<ChangeOutcome[]> {
  if (changes.length < 1 || changes.length > MAX_BATCH_FILES) {
    throw new HashlineError('batch_limit', `a batch takes 1-${MAX_BATCH_FILES} files, got ${changes.length}`);
  }
  checkEndpoints(changes);
  const requireHash = options.requireHash ?? true;
  const keep = options.keepBefore ?? -1;
  const reals = changes.flatMap((c) => endpoints(c).map((rp) => rp.real));
  const locked = <T>(fn: () => Promise<T>) => (options.locksHeld ? fn() : locks.withLocks(reals, fn, { signal: options.signal }));
  const outcomes = await locked(async () => {
    const states: FileState[] = [];
    for (const c of changes) {
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted: nothing was changed');
      try {
        states.push(await preflight(guard, c, requireHash, keep, options.signal));
      } catch (e) {
        throw naming(e, primary(c).display, {});
      }
    }
    await options.afterPreflight?.();
    const undos: Undo[] = [];
    const outcomes: ChangeOutcome[] = [];
    let current = 0;
    try {
      for (let i = 0; i < changes.length; i++) {
        current = i;
        if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
        await options.beforeApply?.(i);
        if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
        const c = changes[i]!;
        const state = states[i]!;
        let vh: VerifiedHandle | null = null;
        // the first write, with no hook run since its preflight, was looked at just now
        const justLooked = i === 0 && c.kind === 'write' && options.afterPreflight === undefined && options.beforeApply === undefined;
        if (state.exists) vh = justLooked ? null : await reopenChecked(guard, primary(c), state, options.signal);
        else if (await occupied(primary(c))) throw new HashlineError('already_exists', `\`${primary(c).display}\` appeared while the batch was running; hash it and retry`, { details: { path: primary(c).display } });
        try {
          const { undo, outcome } = await applyChange(guard, c, state, vh, options.signal);
          undos.push(undo);
          if (state.exists) {
            // a read-blocked file's hash is returned only when the caller gave it
            if (c.expectedSha256 !== undefined || readAdmitted(guard, primary(c))) outcome.sha256Before = state.sha256;
            if (c.kind !== 'write' && c.kind !== 'delete') outcome.sha256After = state.sha256;
            if (state.bytes && state.size <= keep) outcome.before = state.bytes;
          }
          if (c.kind === 'write') {
            outcome.sha256After = createHash('sha256').update(c.bytes).digest('hex');
            const key = statKeyNow(c.rp.real);
            if (key !== undefined) outcome.keyAfter = key;
          }
          outcomes.push(outcome);
        } finally {
          await vh?.handle.close().catch(() => undefined);
        }
        options.progress?.(i + 1, changes.length);
      }
    } catch (e) {
      const cause = toHashlineError(e);
      const { restored, failed } = await rollBack(guard, undos);
      const filePath = primary(changes[current]!).display;
      if (failed.length > 0) {
        const affected = failed.map((f) => f.path);
        const kept = failed.flatMap((f) => (f.kept === undefined ? [] : [{ path: f.path, backup: f.kept }]));
        // (the locks are let go as withLocks returns, this way out included)
        throw new HashlineError('rollback_incomplete', rollbackIncomplete(cause.message, affected, kept), {
          details: { filePath, cause: cause.code, affected, causes: failed, restored, kept },
          cause,
        });
      }
      throw naming(cause, filePath, { rolledBack: true, restored });
    }
    for (const [i, u] of undos.entries()) {
      if (options.frees !== undefined && changes[i]!.kind === 'write') options.frees.push(u.discard(true));
      else await u.discard();
    }
    return outcomes;
  });
  // after the locks are let go: a lock file lives beside its file (io/locks/lock-place.ts), so the
  // directory of a deleted file is only empty once its lock is gone
  for (const [i, c] of changes.entries()) {
    if (c.kind === 'delete' && c.removeEmptyParents) outcomes[i]!.removedDirs = await removeEmptyParents(guard, c.rp);
  }
  return outcomes;
}
