// Atomic, durable replacement of a file: write a temporary file in the same directory, fsync it,
// give it the old file's mode (and owner where permitted), rename it over the target, fsync the
// directory. The temporary file is removed on every failure. All names are resolved inside the
// parent directory opened and verified once (through its descriptor, /proc/self/fd/N), so a parent
// swapped for a link mid-write cannot redirect anything. Writes go to the resolved real path,
// so writing through an in-bounds symbolic link updates its target and keeps the link.
//
// A rewrite of an existing file keeps its owner (where this process may set it) and its mode less
// the setuid and setgid bits: the kernel drops those on a write by anyone but a privileged
// process, and a new inode with new content must not inherit a privilege granted to the old one.
// The owner is set first and the mode after it, so the result does not hang on whether the
// kernel clears those bits on a chown.
//
// With `commit`, the data is written and synced first and only the commit (the check of what
// stands at the target, owner and mode, the rename) runs inside the wrapper: HTTP PUT takes the
// path's lock there, so a slow body never holds it.
//
// Calls that only touch memory (opening the directory, reading its descriptor's path, lstat,
// creating the temporary file, writing a buffer, chmod, close, rename) are made synchronously:
// each costs microseconds, a thread-pool round trip costs more. The calls that wait for the disk
// (fsync of the file and of the directory) and the writes of a stream go to the thread pool. (A
// batch of many files, io/batch/atomic-batch.ts, keeps creates and renames there too, in parallel.)

import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fchownSync, fsync as fsyncCallback, linkSync, lstatSync, openSync, promises as fsp, readlinkSync, renameSync, unlinkSync, write as writeCallback, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errnoText, HashlineError, errnoDetails } from '../core/errors/errors.js';
import { linkSwapped } from '../core/messages/guard.js';
import { tempName } from '../core/own-names.js';
import { selfIdentity } from './locks/lock-owner.js';
import { dropOldBytes, freeOldBytes, linkOldBytes } from './old-bytes-link.js';
import type { PathGuard, ResolvedPath } from './guard/path-guard.js';

export interface AtomicWriteOptions {
  /** Mode for the file; default: the existing file's mode, or 0o666 less the umask for a new file. */
  mode?: number;
  /** Create missing parent directories (inside the guard's scope). Default false. */
  createParents?: boolean;
  /** fsync the file and its directory. Default: the guard's durability (`fsync` mode: true; `atomic`: false). */
  durable?: boolean;
  /**
   * fsync the directory after the rename (default: when durable). A caller writing many files into
   * the same directories passes false and fsyncs each directory once before it reports success.
   */
  syncDirectory?: boolean;
  signal?: AbortSignal;
  /** Refuse if the target exists (create-only). */
  exclusive?: boolean;
  /** Owner and group to give the file (the operating system decides whether that is permitted). */
  owner?: { uid: number; gid: number };
  /** Runs the commit step (target check, owner and mode, rename) inside this wrapper, e.g. under a lock. */
  commit?: <T>(step: () => Promise<T>) => Promise<T>;
  /**
   * The target's parent, already opened and verified by the caller (as openAnchoredDir does) and
   * held open by it: used as is, neither opened nor closed here (`createParents` is then ignored).
   */
  parent?: AnchoredDir;
  /**
   * Given: a file replaced keeps its old bytes under a hidden link across the rename, freed in the
   * thread pool (io/old-bytes-link.ts); the free's promise is pushed here, for the caller to await
   * before it replies.
   */
  frees?: Promise<void>[];
  /**
   * What the caller's own lstat found at the target (null: nothing), made with no yield since (so it
   * is the check's answer): judged here as the check's own would be, without a second lstat. Used
   * only with `parent` (no yield then before the check).
   */
  inspected?: Stats | null;
}

export interface AtomicWriteResult {
  created: boolean;
  mode: number;
  bytes: number;
  /** Parent directories this write created (outermost first), for a caller that must undo it. */
  madeDirs: string[];
}

/** Random per process (and per worker thread), so names of different processes never meet. */
// A temp name carries its writer's pid and start time (`<pid>.<start>.<random>`), so a takeover of a
// dead writer's lock removes that writer's temps and never those of a live upload (lock-file.ts).
const tempPrefix = `${process.pid}.${selfIdentity().start ?? 'x'}.${randomBytes(4).toString('hex')}.`;
let tempCounter = 0;

/**
 * A fresh name for the temporary file beside `target`: the process's random prefix and a counter
 * (unique within the process without a call for randomness per file; the file is created with
 * O_EXCL and O_NOFOLLOW anyway, so a name that exists is an error, never a write through it).
 */
export function tempNameFor(target: string): string {
  return path.join(path.dirname(target), tempName(path.basename(target), `${tempPrefix}${(tempCounter++).toString(36)}`));
}

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new HashlineError('aborted', 'aborted');
}

/**
 * An open directory, verified to be `dir` and inside the policy, and the path prefix that names it
 * through its descriptor (`/proc/self/fd/N` on Linux): names under that prefix resolve in exactly
 * this directory even if a parent is swapped for a link afterwards (an openat() in all but name).
 */
export interface AnchoredDir {
  fd: number;
  prefix: string;
}

const HAS_PROC_FD = process.platform === 'linux';

export function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // already closed or never valid: nothing to undo
  }
}

/** `target`: the name in `dir` the caller will create or replace (the policy may admit it alone: see admitsParentOf). */
export function openAnchoredDir(guard: PathGuard, dir: string, display: string, target: string): AnchoredDir {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new HashlineError('not_found', `cannot write \`${display}\`: its parent directory does not exist`, { cause: e });
    }
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new HashlineError('link_swapped', linkSwapped(display), { cause: e });
    throw new HashlineError('io_error', `failed to write \`${display}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
  }
  if (!HAS_PROC_FD) return { fd, prefix: dir };
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return { fd, prefix: dir };
  }
  if (actual !== dir || !guard.admitsParentOf(actual, target, 'write')) {
    closeQuietly(fd);
    throw new HashlineError('link_swapped', linkSwapped(display), { details: { opened: actual } });
  }
  return { fd, prefix: `/proc/self/fd/${fd}` };
}

/** fsync of a descriptor on the thread pool (the one call here that waits for the disk). */
function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsyncCallback(fd, (e) => (e ? reject(e) : resolve())));
}

/** Creates the missing parents of `rp.real` one by one, each inside its verified parent. */
export async function ensureParents(guard: PathGuard, rp: ResolvedPath): Promise<string[]> {
  const made: string[] = [];
  const missing: string[] = [];
  let existing = path.dirname(rp.real);
  for (; existing !== '/'; existing = path.dirname(existing)) {
    try {
      // (one metadata call: synchronous, without a thread-pool round trip)
      const st = lstatSync(existing);
      if (!st.isDirectory()) {
        throw new HashlineError('not_a_directory', `\`${guard.display(existing)}\` is not a directory`);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.unshift(existing);
    }
  }
  try {
    for (const d of missing) {
      if (!guard.admitsReal(d, 'write')) {
        throw new HashlineError('path_outside_root', `permission denied: cannot create \`${guard.display(d)}\``);
      }
      const parent = openAnchoredDir(guard, path.dirname(d), rp.display, d);
      try {
        await fsp.mkdir(`${parent.prefix}/${path.basename(d)}`);
      } finally {
        closeQuietly(parent.fd);
      }
      made.push(d);
    }
  } catch (e) {
    // what this call made is removed again (innermost first; one that is no longer empty stays)
    for (const d of [...made].reverse()) await fsp.rmdir(d).catch(() => undefined);
    throw e;
  }
  return made;
}

/** Mode bits a rewrite of an existing file keeps: all but setuid and setgid. */
export const REWRITE_KEEPS = 0o7777 & ~0o6000;

/** Checks what stands at the target (a link, directory or other non-file is refused); null when nothing does. */
function inspectTarget(targetPath: string, rp: ResolvedPath, options: AtomicWriteOptions, seen?: Stats | null): Stats | null {
  const existing: Stats | null = seen !== undefined ? seen : (lstatSync(targetPath, { throwIfNoEntry: false }) ?? null);
  if (existing === null) return null;
  if (options.exclusive) throw new HashlineError('io_error', `\`${rp.display}\` already exists`, { details: { path: rp.display } });
  if (existing.isSymbolicLink()) throw new HashlineError('link_swapped', linkSwapped(rp.display));
  if (existing.isDirectory()) throw new HashlineError('is_directory', `\`${rp.display}\` is a directory`);
  if (!existing.isFile()) throw new HashlineError('not_regular_file', `\`${rp.display}\` is not a regular file`);
  return existing;
}

/** Gives the temporary file the owner (as root) and then the mode it should have in place of `existing`; returns the mode. */
function applyOwnerAndMode(fd: number, existing: Stats | null, options: AtomicWriteOptions): number {
  let mode = (options.mode ?? (existing ? existing.mode : 0o666 & ~process.umask())) & 0o7777;
  if (existing) mode &= REWRITE_KEEPS;
  if (options.owner !== undefined) {
    // asked for: the operating system decides whether it is permitted (a refusal fails the write)
    fchownSync(fd, options.owner.uid, options.owner.gid);
  } else if (existing && process.getuid?.() === 0 && (existing.uid !== 0 || existing.gid !== 0)) {
    try {
      fchownSync(fd, existing.uid, existing.gid);
    } catch {
      // best effort, as the owner of a file may not be settable
    }
  }
  // the mode after the owner: a chown clears setuid and setgid, and the mode asked for is the mode given
  fchmodSync(fd, mode);
  return mode;
}

const sameOwnerAndMode = (a: Stats | null, b: Stats | null) =>
  a === null || b === null ? a === b : a.mode === b.mode && a.uid === b.uid && a.gid === b.gid;

const writeAt = (fd: number, chunk: Uint8Array, position: number) =>
  new Promise<void>((resolve, reject) => writeCallback(fd, chunk, 0, chunk.length, position, (e) => (e ? reject(e) : resolve())));

/** Writes a buffer into the page cache (no disk wait) and returns its length. */
function writeBufferSync(fd: number, data: Uint8Array): number {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done, done);
  return data.length;
}

async function writeStream(fd: number, data: AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for await (const chunk of data) {
    abortIfNeeded(signal);
    await writeAt(fd, chunk, total);
    total += chunk.length;
  }
  return total;
}

/** Replaces (or creates) the file at `rp.real` with `data`, atomically. */
export async function writeAtomic(
  guard: PathGuard,
  rp: ResolvedPath,
  data: Uint8Array | AsyncIterable<Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  abortIfNeeded(options.signal);
  const durable = options.durable ?? guard.durable;
  const target = rp.real;
  const dir = path.dirname(target);
  const name = path.basename(target);
  const madeDirs = options.createParents && options.parent === undefined ? await ensureParents(guard, rp) : [];
  let anchored: AnchoredDir | undefined;
  let fd: number | undefined;
  let tempPath: string | undefined;
  let renamed = false;
  try {
    anchored = options.parent ?? openAnchoredDir(guard, dir, rp.display, target);
    const targetPath = `${anchored.prefix}/${name}`;
    let existing = inspectTarget(targetPath, rp, options, options.parent === undefined ? undefined : options.inspected);
    tempPath = `${anchored.prefix}/${path.basename(tempNameFor(target))}`;
    fd = openSync(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    const tempFd = fd;
    // a buffer is written without yielding, so the fsync below is under way before this call
    // first returns to its caller (which may compute meanwhile)
    const bytes = data instanceof Uint8Array ? writeBufferSync(fd, data) : await writeStream(fd, data, options.signal);
    let mode = applyOwnerAndMode(fd, existing, options);
    if (durable) await fsyncFd(fd);
    const commit = async (): Promise<AtomicWriteResult> => {
      if (options.commit) {
        // the target may have changed while the data was written: check it again, inside the wrapper
        const now = inspectTarget(targetPath, rp, options);
        if (!sameOwnerAndMode(now, existing)) {
          mode = applyOwnerAndMode(tempFd, now, options);
          if (durable) await fsyncFd(tempFd);
        }
        existing = now;
      }
      closeSync(tempFd);
      fd = undefined;
      abortIfNeeded(options.signal);
      if (options.exclusive) {
        // link() fails if the target appeared meanwhile: create-only without a window.
        try {
          linkSync(tempPath!, targetPath);
        } catch (e) {
          throw new HashlineError('io_error', `\`${rp.display}\` already exists`, { details: errnoDetails(e), cause: e });
        }
        unlinkSync(tempPath!);
      } else {
        const old = options.frees !== undefined && existing !== null ? linkOldBytes(anchored!.prefix, dir, path.basename(tempNameFor(targetPath)), targetPath) : undefined;
        try {
          renameSync(tempPath!, targetPath);
        } catch (e) {
          if (old !== undefined) dropOldBytes(old);
          throw e;
        }
        if (old !== undefined) options.frees!.push(freeOldBytes(old));
      }
      renamed = true;
      // best effort: some file systems refuse fsync on directories
      if (durable && options.syncDirectory !== false) await fsyncFd(anchored!.fd).catch(() => undefined);
      return { created: existing === null, mode, bytes, madeDirs };
    };
    return options.commit ? await options.commit(commit) : await commit();
  } catch (e) {
    closeQuietly(fd);
    if (!renamed) {
      if (tempPath !== undefined) await fsp.unlink(tempPath).catch(() => undefined);
      for (const d of madeDirs.reverse()) await fsp.rmdir(d).catch(() => undefined);
    }
    if (e instanceof HashlineError) throw e;
    throw new HashlineError('io_error', `failed to write \`${rp.display}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
  } finally {
    if (options.parent === undefined) closeQuietly(anchored?.fd);
  }
}
