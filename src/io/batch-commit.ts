// All-or-nothing changes to 1-50 files: every path is locked (sorted order), every expected SHA-256
// is checked against the file as it is now (compare-and-swap), the old state of each file is kept
// as a hard link beside it, the changes are applied in order, and on any failure or cancellation
// the applied ones are undone in reverse. The boundary tools build on this.

import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { MAX_BATCH_FILES } from '../core/config.js';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { writeAtomic } from './atomic-write.js';
import type { LockManager } from './file-lock.js';
import { openVerified } from './open-verified.js';
import type { PathGuard, ResolvedPath } from './path-guard.js';

export type FileChange =
  | { kind: 'write'; rp: ResolvedPath; bytes: Uint8Array; expectedSha256?: string | undefined; mode?: number; owner?: { uid: number; gid: number }; createParents?: boolean }
  | { kind: 'delete'; rp: ResolvedPath; expectedSha256?: string | undefined }
  | { kind: 'rename'; from: ResolvedPath; to: ResolvedPath; expectedSha256?: string | undefined; createParents?: boolean }
  | { kind: 'chmod'; rp: ResolvedPath; mode: number; expectedSha256?: string | undefined };

export interface BatchOptions {
  /** Require an expected SHA-256 for every existing file touched (default true). */
  requireHash?: boolean;
  signal?: AbortSignal | undefined;
  progress?: (done: number, total: number) => void;
  /** Hand back the old bytes of files up to this size in each outcome (`before`), e.g. for the history. */
  keepBefore?: number;
  /** Test seam: called before change i is applied. */
  beforeApply?: (index: number) => Promise<void> | void;
  /** The caller already holds the locks of every path (engine.locks.withLocks), e.g. to read and compute under them. */
  locksHeld?: boolean;
}

export interface ChangeOutcome {
  path: string;
  kind: FileChange['kind'];
  sha256Before?: string;
  sha256After?: string;
  /** A write made a new file. */
  created?: boolean;
  /** The bytes the file held before, when the caller asked (`keepBefore`) and it was no larger. */
  before?: Uint8Array;
}

interface Undo {
  run(): Promise<void>;
  /** Called after the whole batch succeeded. */
  discard(): Promise<void>;
  path: string;
}

const BACKUP_MARKER = '.hashline-bak-';

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function primary(c: FileChange): ResolvedPath {
  return c.kind === 'rename' ? c.from : c.rp;
}

async function currentState(guard: PathGuard, rp: ResolvedPath): Promise<{ exists: false } | { exists: true; sha256: string; mode: number; bytes: Uint8Array }> {
  try {
    const vh = await openVerified(guard, rp, 'write');
    try {
      const bytes = await vh.handle.readFile();
      return { exists: true, sha256: sha256(bytes), mode: vh.mode & 0o7777, bytes };
    } finally {
      await vh.handle.close();
    }
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return { exists: false };
    throw e;
  }
}

function backupName(real: string): string {
  return path.join(path.dirname(real), `.${path.basename(real)}${BACKUP_MARKER}${randomBytes(6).toString('hex')}`);
}

/** Keeps the current file as a hard link beside it; undo puts it back by rename. */
async function keepBackup(real: string): Promise<string> {
  const backup = backupName(real);
  await fsp.link(real, backup);
  return backup;
}

async function checkHash(change: FileChange, state: Awaited<ReturnType<typeof currentState>>, requireHash: boolean): Promise<void> {
  const rp = primary(change);
  if (!state.exists) {
    if (change.kind !== 'write') {
      throw new HashlineError('not_found', `\`${rp.display}\` does not exist`, { details: { path: rp.display } });
    }
    if (change.expectedSha256 !== undefined) {
      throw new HashlineError('stale_or_missing_hash', `\`${rp.display}\` does not exist, but an expectedSha256 was given`, { details: { path: rp.display, reason: 'unexpected' } });
    }
    return;
  }
  if (change.expectedSha256 === undefined) {
    if (requireHash) {
      throw new HashlineError('stale_or_missing_hash', `\`${rp.display}\` exists: pass its fresh expectedSha256 (from file_hash) to change it`, {
        details: { path: rp.display, reason: 'missing' },
      });
    }
    return;
  }
  if (change.expectedSha256.toLowerCase() !== state.sha256) {
    throw new HashlineError('stale_or_missing_hash', `Stale file context: expected ${change.expectedSha256}, found ${state.sha256}`, {
      details: { path: rp.display, reason: 'mismatch', expected: change.expectedSha256, actual: state.sha256 },
    });
  }
}

async function apply(guard: PathGuard, change: FileChange, state: Awaited<ReturnType<typeof currentState>>, signal?: AbortSignal): Promise<{ undo: Undo; outcome: ChangeOutcome }> {
  const rp = primary(change);
  const before = state.exists ? state.sha256 : undefined;
  switch (change.kind) {
    case 'write': {
      const backup = state.exists ? await keepBackup(rp.real) : undefined;
      let made: string[];
      try {
        made = (
          await writeAtomic(guard, rp, change.bytes, {
            signal,
            createParents: change.createParents ?? false,
            ...(change.mode === undefined ? {} : { mode: change.mode }),
            ...(change.owner === undefined ? {} : { owner: change.owner }),
          })
        ).madeDirs;
      } catch (e) {
        if (backup) await fsp.unlink(backup).catch(() => undefined);
        throw e;
      }
      return {
        outcome: { path: rp.display, kind: 'write', ...(before ? { sha256Before: before } : {}), sha256After: sha256(change.bytes), created: !state.exists },
        undo: {
          path: rp.display,
          run: async () => {
            if (backup) return fsp.rename(backup, rp.real);
            await fsp.unlink(rp.real);
            // the directories this write made, innermost first; one that is not empty stays
            for (const d of [...made].reverse()) await fsp.rmdir(d).catch(() => undefined);
          },
          discard: async () => (backup ? fsp.unlink(backup).catch(() => undefined) : undefined),
        },
      };
    }
    case 'delete': {
      const backup = backupName(rp.real);
      await fsp.rename(rp.real, backup);
      return {
        outcome: { path: rp.display, kind: 'delete', ...(before ? { sha256Before: before } : {}) },
        undo: { path: rp.display, run: () => fsp.rename(backup, rp.real), discard: () => fsp.unlink(backup).catch(() => undefined) },
      };
    }
    case 'rename': {
      if (change.createParents) await fsp.mkdir(path.dirname(change.to.real), { recursive: true });
      // link() refuses an existing destination: no-replace without a window.
      await fsp.link(change.from.real, change.to.real).catch((e) => {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new HashlineError('already_exists', `\`${change.to.display}\` already exists`, { details: { path: change.to.display } });
        throw e;
      });
      await fsp.unlink(change.from.real);
      return {
        outcome: { path: rp.display, kind: 'rename', ...(before ? { sha256Before: before, sha256After: before } : {}) },
        undo: {
          path: rp.display,
          run: async () => {
            await fsp.link(change.to.real, change.from.real);
            await fsp.unlink(change.to.real);
          },
          discard: async () => undefined,
        },
      };
    }
    case 'chmod': {
      const old = state.exists ? state.mode : 0o644;
      await fsp.chmod(rp.real, change.mode & 0o7777);
      return {
        outcome: { path: rp.display, kind: 'chmod', ...(before ? { sha256Before: before, sha256After: before } : {}) },
        undo: { path: rp.display, run: () => fsp.chmod(rp.real, old), discard: async () => undefined },
      };
    }
  }
}

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
  const reals = changes.flatMap((c) => (c.kind === 'rename' ? [c.from.real, c.to.real] : [c.rp.real]));
  if (new Set(reals).size !== reals.length) {
    throw new HashlineError('invalid_arguments', 'a batch names the same file twice');
  }
  const requireHash = options.requireHash ?? true;
  const locked = <T>(fn: () => Promise<T>) => (options.locksHeld ? fn() : locks.withLocks(reals, fn, { signal: options.signal }));
  return locked(async () => {
    // Preflight everything before the first change: hashes, destinations.
    const states = [];
    for (const c of changes) {
      try {
        const state = await currentState(guard, primary(c));
        await checkHash(c, state, requireHash);
        if (c.kind === 'rename' && (await currentState(guard, c.to)).exists) {
          throw new HashlineError('already_exists', `\`${c.to.display}\` already exists`, { details: { path: c.to.display } });
        }
        states.push(state);
      } catch (e) {
        throw naming(e, primary(c).display, {});
      }
    }
    const undos: Undo[] = [];
    const outcomes: ChangeOutcome[] = [];
    let current = 0;
    try {
      for (let i = 0; i < changes.length; i++) {
        current = i;
        if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
        await options.beforeApply?.(i);
        const state = states[i]!;
        const { undo, outcome } = await apply(guard, changes[i]!, state, options.signal);
        if (state.exists && options.keepBefore !== undefined && state.bytes.length <= options.keepBefore) outcome.before = state.bytes;
        undos.push(undo);
        outcomes.push(outcome);
        options.progress?.(i + 1, changes.length);
      }
    } catch (e) {
      const cause = toHashlineError(e);
      const failed: string[] = [];
      const restored: string[] = [];
      for (const u of undos.reverse()) {
        try {
          await u.run();
          restored.push(u.path);
        } catch {
          failed.push(u.path);
        }
      }
      const filePath = primary(changes[current]!).display;
      if (failed.length > 0) {
        throw new HashlineError('rollback_incomplete', `${cause.message}; rolling back failed for: ${failed.join(', ')}. Inspect these files and hash them again before retrying`, {
          details: { filePath, cause: cause.code, affected: failed, restored: restored.reverse() },
          cause,
        });
      }
      throw naming(cause, filePath, { rolledBack: true, restored: restored.reverse() });
    }
    for (const u of undos) await u.discard();
    return outcomes;
  });
}
