// A synchronous verified read of a small file, for the symbol search's bulk pass over thousands
// of files (a thread-pool hop per syscall costs more than the read itself). The same checks as
// io/guard/open-verified.ts: no final link (O_NOFOLLOW), a regular file, and on Linux the descriptor's
// real path must be the checked path and pass the policy. Callers slice their work so the event
// loop is never held for long.

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readlinkSync } from 'node:fs';
import { errnoText, HashlineError, errnoDetails } from '../../core/errors/errors.js';
import { linkSwapped } from '../../core/messages/guard.js';
import type { Scope } from '../../core/config/path-policy.js';
import { isOpenedPath, openVerifiedSync } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

const HAS_PROC_FD = process.platform === 'linux';

export interface SyncRead {
  bytes: Buffer;
  /** `size:mtimeMs:ino:dev` of what was read, for cache validation. */
  key: string;
  /** The file's mode (type and permission bits) as fstat gave it. */
  mode: number;
}

/** Opens for reading without following a final link, and without blocking on a fifo. */
export const OPEN_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Reads up to `size` bytes of `fd` from its start (fewer when the file shrank meanwhile), into
 * `scratch` when it is large enough (the result is then a view of it, valid until its next use).
 */
export function readFdSync(fd: number, size: number, scratch?: Buffer): Buffer {
  const bytes = scratch !== undefined && scratch.length >= size ? scratch.subarray(0, size) : Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, bytes, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got === size ? bytes : bytes.subarray(0, got);
}

/**
 * Reads `fd` from its start to its end into `buf` (a file grown since its fstat is read on: the
 * buffer is doubled when full), stopping once more than `max` bytes are in; the result is a view
 * of `buf` or of the larger buffer that replaced it.
 */
export function readToEndSync(fd: number, buf: Buffer, max = Number.POSITIVE_INFINITY): Buffer {
  let got = 0;
  for (;;) {
    if (got === buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, 4096));
      buf.copy(bigger, 0, 0, got);
      buf = bigger;
    }
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n === 0) return buf.subarray(0, got);
    got += n;
    if (got > max) return buf.subarray(0, got);
  }
}

export function statKey(st: { size: number; mtimeMs: number; ino: number; dev: number }): string {
  return `${st.size}:${st.mtimeMs}:${st.ino}:${st.dev}`;
}

/** The stat key of the regular file at `real` now (one lstat), or undefined (gone, not a file). */
export function statKeyNow(real: string): string | undefined {
  try {
    const st = lstatSync(real);
    return st.isFile() ? statKey(st) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads `real` whole, or returns null when it is missing, not a regular file, or larger than
 * `maxBytes`. With `scratch`, the bytes may be a view of it (copy them to keep them).
 */
export function readVerifiedSync(guard: PathGuard, real: string, display: string, maxBytes: number, scope: Scope = 'read', scratch?: Buffer): SyncRead | null {
  return readVerifiedSyncWith(guard, real, display, maxBytes, scope, (fd, size) => readFdSync(fd, size, scratch));
}

/**
 * readVerifiedSync with the reading of the checked descriptor's bytes left to `readBytes(fd, size)`
 * (a caller that compares the bytes before it keeps them may read them into a buffer it reuses).
 */
export function readVerifiedSyncWith(guard: PathGuard, real: string, display: string, maxBytes: number, scope: Scope, readBytes: (fd: number, size: number) => Buffer): SyncRead | null {
  let fd: number;
  try {
    fd = openSync(real, OPEN_NO_FOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return null;
    throw new HashlineError('io_error', `cannot open \`${display}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    if (HAS_PROC_FD) {
      const actual = readlinkSync(`/proc/self/fd/${fd}`);
      if (!isOpenedPath(actual, real) || !guard.admitsReal(real, scope)) {
        throw new HashlineError('link_swapped', linkSwapped(display), { details: { path: display, opened: actual } });
      }
    }
    return { bytes: readBytes(fd, st.size), key: statKey(st), mode: st.mode };
  } finally {
    closeSync(fd);
  }
}

/**
 * A small read by name that spares the guard's lstat of the last component: the name's lexical
 * checks and its parent's resolution are the guard's (`checkLexical`, `realIfNameNotLink`), then
 * the name itself is opened with O_NOFOLLOW and the descriptor checked as above (its real path
 * must be the one the policy admitted, so a link anywhere along the path fails the check).
 * Answers only the plain case: null whenever `guard.resolve` and the reads after it must decide
 * (a link as last component, missing, not a regular file, over `maxBytes`, a descriptor that is
 * elsewhere, an open error, no /proc), so every refusal and its wording stays theirs.
 */
export function readByNameSync(guard: PathGuard, input: string, maxBytes: number, scope: Scope = 'read'): Buffer | null {
  if (!HAS_PROC_FD) return null;
  const real = guard.realIfNameNotLink(guard.checkLexical(input, scope), scope);
  if (real === null) return null;
  // any failure is null: the full path reads again and words the error
  return quietReadSync(real, maxBytes, (fd) => isOpenedPath(readlinkSync(`/proc/self/fd/${fd}`), real))?.bytes ?? null;
}

/**
 * Reads `real` whole when it is a regular file of at most `maxBytes` opened without following a
 * final link and `accept(fd)` (if given) holds; null on anything else, errors included.
 */
export function quietReadSync(real: string, maxBytes: number, accept?: (fd: number) => boolean): SyncRead | null {
  let fd: number;
  try {
    fd = openSync(real, OPEN_NO_FOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes || (accept && !accept(fd))) return null;
    return { bytes: readFdSync(fd, st.size), key: statKey(st), mode: st.mode };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * guard/open-verified.ts `readVerified` in synchronous calls, for a file of at most `maxBytes`
 * (its fstat size): the same checks and errors; null for a larger file (the caller reads it with
 * readVerified, in the thread pool).
 */
export function readVerifiedSmall(guard: PathGuard, rp: ResolvedPath, scope: Scope, maxBytes: number): { bytes: Buffer; mode: number } | null {
  const vf = openVerifiedSync(guard, rp, scope);
  try {
    return vf.size > maxBytes ? null : { bytes: readToEndSync(vf.fd, Buffer.allocUnsafe(vf.size)), mode: vf.mode };
  } finally {
    closeSync(vf.fd);
  }
}
