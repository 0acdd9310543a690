// One change of a batch (io/batch/batch-commit.ts) and how to undo it. Each step runs after the file was
// proven to be the journaled one (io/batch/batch-state.ts) and names files inside their parent
// directories opened and verified through a descriptor (io/atomic-write.ts `openAnchoredDir`), so a
// parent swapped for a link meanwhile redirects nothing.
// - write: the old file kept as a hard link beside it, then an atomic replace (or create).
// - delete: renamed to a hidden backup name in its own directory, which the batch removes at the end.
// - rename: no-replace: a hard link at the destination (fails if anything is there), then the source
//   unlinked; both endpoints' policy and real paths checked again just before; directories refused.
// - chattr: owner then mode, through the verified open handle (fchown, fchmod).

import { randomBytes } from 'node:crypto';
import { fsync, linkSync, lstatSync, promises as fsp, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { HashlineError, errnoDetails } from '../../core/errors/errors.js';
import { linkSwapped } from '../../core/messages/guard.js';
import { backupName } from '../../core/own-names.js';
import { closeQuietly, ensureParents, openAnchoredDir, writeAtomic, type AnchoredDir } from '../atomic-write.js';
import type { Attributes, ChangeOutcome, FileChange } from './batch-change.js';
import { changedError, occupied, type FileState, type PresentState } from './batch-state.js';
import { openVerified, type VerifiedHandle } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

export interface Undo {
  path: string;
  /** The real path of the backup that holds the file's previous bytes until the batch ends (none for renames and mode changes). */
  kept?: string;
  run(): Promise<void>;
  /**
   * Called after the whole batch succeeded. `background`: a replaced file's backup is removed in the
   * thread pool, the promise settling when it is gone (the caller does its own work meanwhile).
   */
  discard(background?: boolean): Promise<void>;
}

export interface Applied {
  undo: Undo;
  outcome: ChangeOutcome;
}

const backupBase = (real: string) => backupName(path.basename(real), randomBytes(6).toString('hex'));

const fsyncFd = (fd: number) => new Promise<void>((resolve) => fsync(fd, () => resolve()));

/** Runs `fn` with the verified parent directories of `reals` (one descriptor each), closing them after. */
async function inDirs<T>(guard: PathGuard, ends: readonly ResolvedPath[], fn: (names: string[], dirs: AnchoredDir[]) => T | Promise<T>): Promise<T> {
  const dirs: AnchoredDir[] = [];
  try {
    for (const rp of ends) dirs.push(openAnchoredDir(guard, path.dirname(rp.real), rp.display, rp.real));
    return await fn(ends.map((rp, i) => `${dirs[i]!.prefix}/${path.basename(rp.real)}`), dirs);
  } finally {
    for (const d of dirs) closeQuietly(d.fd);
  }
}

function linkError(e: unknown, from: ResolvedPath, to: ResolvedPath): HashlineError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return new HashlineError('already_exists', `\`${to.display}\` already exists`, { details: { path: to.display } });
  if (code === 'EXDEV') {
    return new HashlineError('io_error', `\`${from.display}\` and \`${to.display}\` are on different file systems: a rename stays within one`, { details: { path: to.display, ...errnoDetails(e) }, cause: e });
  }
  if (code === 'EPERM' || code === 'EACCES') {
    return new HashlineError('io_error', `the operating system refused a link at \`${to.display}\` (hard links are how renames refuse to replace)`, { details: { path: to.display, ...errnoDetails(e) }, cause: e });
  }
  return new HashlineError('io_error', `cannot rename \`${from.display}\` to \`${to.display}\`: ${(e as Error).message}`, { details: errnoDetails(e), cause: e });
}

const sameFile = (st: { dev: number; ino: number }, s: PresentState) => st.dev === s.dev && st.ino === s.ino;

/** Backups of files up to this size are removed synchronously (see applyWrite's discard). */
const SYNC_FREE_MAX = 1024 * 1024;

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

async function applyWrite(guard: PathGuard, c: Extract<FileChange, { kind: 'write' }>, state: FileState, signal?: AbortSignal): Promise<Applied> {
  const rp = c.rp;
  let backup: string | undefined;
  if (state.exists) {
    backup = path.join(path.dirname(rp.real), backupBase(rp.real));
    // (one metadata call each: synchronous, without a thread-pool round trip)
    linkSync(rp.real, backup);
    if (!sameFile(lstatSync(backup), state)) {
      unlinkQuietly(backup);
      throw changedError(rp, 'replaced');
    }
  }
  let made: string[];
  try {
    made = (
      await writeAtomic(guard, rp, c.bytes, {
        signal,
        createParents: c.createParents ?? false,
        ...(c.mode === undefined ? {} : { mode: c.mode }),
        ...(c.owner === undefined ? {} : { owner: c.owner }),
      })
    ).madeDirs;
  } catch (e) {
    if (backup) await fsp.unlink(backup).catch(() => undefined);
    throw e;
  }
  return {
    outcome: { path: rp.display, kind: 'write', created: !state.exists, madeDirs: made.map((d) => guard.display(d)) },
    undo: {
      path: rp.display,
      ...(backup ? { kept: backup } : {}),
      run: async () => {
        if (backup) return fsp.rename(backup, rp.real);
        await fsp.unlink(rp.real);
        // the directories this write made, innermost first; one that is not empty stays
        for (const d of [...made].reverse()) await fsp.rmdir(d).catch(() => undefined);
      },
      // the backup holds the old bytes' last link: freeing a small file's blocks takes the file system
      // less than a thread-pool round trip, unless the caller has work to do meanwhile (`background`:
      // the blocks may still be under the write-back of the previous write, which the free waits
      // for); a large one's is left to the pool, off the event loop
      discard: async (background = false) => {
        if (backup === undefined) return;
        if (!background && state.exists && state.size <= SYNC_FREE_MAX) unlinkQuietly(backup);
        else await fsp.unlink(backup).catch(() => undefined);
      },
    },
  };
}

async function applyDelete(guard: PathGuard, rp: ResolvedPath, state: PresentState): Promise<Applied> {
  const backup = backupBase(rp.real);
  const dirReal = path.dirname(rp.real);
  await inDirs(guard, [rp], ([name], [dir]) => {
    const kept = `${dir!.prefix}/${backup}`;
    renameSync(name!, kept);
    if (!sameFile(lstatSync(kept), state)) {
      // not the journaled file after all: put back what was moved, under its own name
      linkSync(kept, name!);
      unlinkSync(kept);
      throw changedError(rp, 'replaced');
    }
    return guard.durable ? fsyncFd(dir!.fd) : undefined;
  });
  return {
    outcome: { path: rp.display, kind: 'delete' },
    undo: {
      path: rp.display,
      kept: path.join(dirReal, backup),
      // link() refuses a file that appeared under the old name meanwhile: never replaced
      run: () => inDirs(guard, [rp], ([name], [dir]) => {
        linkSync(`${dir!.prefix}/${backup}`, name!);
        unlinkSync(`${dir!.prefix}/${backup}`);
      }),
      discard: () => fsp.unlink(path.join(dirReal, backup)).catch(() => undefined),
    },
  };
}

async function applyRename(guard: PathGuard, c: Extract<FileChange, { kind: 'rename' }>, state: PresentState): Promise<Applied> {
  // policy and physical paths again, right before the rename: a parent swapped for a link since
  // the preflight resolves elsewhere now, and is refused
  const from = await guard.resolve(c.from.input, 'write');
  const to = await guard.resolve(c.to.input, 'write');
  if (from.real !== c.from.real) throw new HashlineError('link_swapped', linkSwapped(c.from.display), { details: { path: c.from.display } });
  if (to.real !== c.to.real) throw new HashlineError('link_swapped', linkSwapped(c.to.display), { details: { path: c.to.display } });
  if (await occupied(to)) throw new HashlineError('already_exists', `\`${to.display}\` already exists`, { details: { path: to.display } });
  const made = c.createParents ? await ensureParents(guard, to) : [];
  try {
    await inDirs(guard, [from, to], ([src, dst], dirs) => {
      const st = lstatSync(src!);
      if (!st.isFile() || !sameFile(st, state)) throw changedError(from, 'replaced');
      try {
        linkSync(src!, dst!);
      } catch (e) {
        throw linkError(e, from, to);
      }
      if (!sameFile(lstatSync(dst!), state)) {
        unlinkSync(dst!);
        throw changedError(from, 'replaced');
      }
      unlinkSync(src!);
      return guard.durable ? Promise.all(dirs.map((d) => fsyncFd(d.fd))) : undefined;
    });
  } catch (e) {
    for (const d of [...made].reverse()) await fsp.rmdir(d).catch(() => undefined);
    throw e;
  }
  return {
    outcome: { path: from.display, kind: 'rename', destination: to.display, madeDirs: made.map((d) => guard.display(d)) },
    undo: {
      path: from.display,
      run: async () => {
        await inDirs(guard, [to, from], ([dst, src]) => {
          if (!sameFile(lstatSync(dst!), state)) throw changedError(to, 'replaced');
          linkSync(dst!, src!);
          unlinkSync(dst!);
        });
        // only the directories this rename made, innermost first, and only while empty
        for (const d of [...made].reverse()) await fsp.rmdir(d).catch(() => undefined);
      },
      discard: async () => undefined,
    },
  };
}

async function applyChattr(guard: PathGuard, c: Extract<FileChange, { kind: 'chattr' }>, state: PresentState, vh: VerifiedHandle): Promise<Applied> {
  const before: Attributes = { mode: state.mode & 0o7777, uid: state.uid, gid: state.gid };
  if (c.owner) await vh.handle.chown(c.owner.uid, c.owner.gid);
  if (c.mode !== undefined) await vh.handle.chmod(c.mode);
  const st = await vh.handle.stat();
  const after: Attributes = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  return {
    outcome: { path: c.rp.display, kind: 'chattr', attributes: { before, after } },
    undo: {
      path: c.rp.display,
      run: async () => {
        const again = await openVerified(guard, c.rp, 'write');
        try {
          if (again.dev !== state.dev || again.ino !== state.ino) throw changedError(c.rp, 'replaced');
          if (c.owner) await again.handle.chown(before.uid, before.gid);
          await again.handle.chmod(before.mode);
        } finally {
          await again.handle.close();
        }
      },
      discard: async () => undefined,
    },
  };
}

/** Applies one change whose file was just proven to be the journaled one (`vh`: its open handle). */
export async function applyChange(guard: PathGuard, c: FileChange, state: FileState, vh: VerifiedHandle | null, signal?: AbortSignal): Promise<Applied> {
  if (c.kind === 'write') return applyWrite(guard, c, state, signal);
  if (!state.exists || vh === null) throw new HashlineError('internal', `no journaled state for a ${c.kind}`);
  if (c.kind === 'delete') return applyDelete(guard, c.rp, state);
  if (c.kind === 'rename') return applyRename(guard, c, state);
  return applyChattr(guard, c, state, vh);
}
