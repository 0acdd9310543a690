// Opens what the guard resolved and checks that the descriptor is what was checked: the final
// component is opened without following links, the descriptor must be a regular file (or a
// directory when asked), and on Linux its real path (via /proc/self/fd) must be the resolved path.

import { closeSync, constants, fstatSync, openSync, promises as fsp, readlinkSync, type BigIntStats, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errnoText, HashlineError, errnoDetails } from '../../core/errors/errors.js';
import { linkSwapped } from '../../core/messages/guard.js';
import type { Scope } from '../../core/config/path-policy.js';
import type { PathGuard, ResolvedPath } from './path-guard.js';

const HAS_PROC_FD = process.platform === 'linux';

/** The real path of an open descriptor, or null where the platform cannot tell. */
export async function descriptorPath(fd: number): Promise<string | null> {
  if (!HAS_PROC_FD) return null;
  try {
    return await fsp.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/**
 * True when a descriptor's real path names the file that was checked. A file replaced by a rename
 * after it was opened reads as `<path> (deleted)`: the descriptor still holds the version that was
 * at the checked path when it was opened, so that is the same file, not a swap.
 */
export function isOpenedPath(actual: string, expected: string): boolean {
  return actual === expected || actual === `${expected} (deleted)`;
}

/** Maps an errno from opening `rp` to a coded error. */
export function openError(rp: ResolvedPath, e: unknown): HashlineError {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return new HashlineError('not_found', `File not found: ${rp.display}`, { details: { path: rp.display }, cause: e });
  }
  if (code === 'ELOOP') return new HashlineError('link_swapped', linkSwapped(rp.display), { cause: e });
  if (code === 'EISDIR') return new HashlineError('is_directory', `\`${rp.display}\` is a directory`, { cause: e });
  if (code === 'EACCES' || code === 'EPERM') {
    return new HashlineError('io_error', `permission denied by the operating system for \`${rp.display}\``, { details: errnoDetails(e), cause: e });
  }
  return new HashlineError('io_error', `cannot open \`${rp.display}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
}

/** What a verified descriptor is: its type is checked, its real path is the resolved one. */
function checkOpened(guard: PathGuard, rp: ResolvedPath, scope: Scope, kind: 'file' | 'dir', st: Stats | BigIntStats, actual: string | null): void {
  if (kind === 'file' && st.isDirectory()) {
    throw new HashlineError('is_directory', `\`${rp.display}\` is a directory`, { details: { path: rp.display } });
  }
  if (kind === 'dir' && !st.isDirectory()) {
    throw new HashlineError('not_a_directory', `\`${rp.display}\` is not a directory`, { details: { path: rp.display } });
  }
  if (kind === 'file' && !st.isFile()) {
    throw new HashlineError('not_regular_file', `\`${rp.display}\` is not a regular file`, { details: { path: rp.display } });
  }
  if (actual !== null && (!isOpenedPath(actual, rp.real) || !guard.admitsReal(rp.real, scope))) {
    throw new HashlineError('link_swapped', linkSwapped(rp.display), { details: { path: rp.display, opened: actual } });
  }
}

export interface VerifiedHandle {
  handle: FileHandle;
  size: number;
  mode: number;
  uid: number;
  gid: number;
  ino: number;
  dev: number;
}

/**
 * Opens `rp.real` for reading (`kind: 'file'`) or listing (`kind: 'dir'`), refusing a final link,
 * anything but the expected type, and a descriptor whose real path is not the checked one.
 */
export async function openVerified(
  guard: PathGuard,
  rp: ResolvedPath,
  scope: Scope,
  kind: 'file' | 'dir' = 'file',
): Promise<VerifiedHandle> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(rp.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw openError(rp, e);
  }
  try {
    const st = await handle.stat();
    checkOpened(guard, rp, scope, kind, st, await descriptorPath(handle.fd));
    return { handle, size: st.size, mode: st.mode, uid: st.uid, gid: st.gid, ino: st.ino, dev: st.dev };
  } catch (e) {
    await handle.close().catch(() => undefined);
    throw e;
  }
}

/** Reads a whole verified file. */
export async function readVerified(guard: PathGuard, rp: ResolvedPath, scope: Scope = 'read'): Promise<{ bytes: Buffer; mode: number }> {
  const vh = await openVerified(guard, rp, scope);
  try {
    const bytes = await vh.handle.readFile();
    return { bytes, mode: vh.mode };
  } finally {
    await vh.handle.close();
  }
}

/** A descriptor openVerifiedSync checked, with what its fstat gave. */
export interface VerifiedFd {
  fd: number;
  size: number;
  mode: number;
  uid: number;
  gid: number;
  ino: number;
  dev: number;
}

/**
 * openVerified of a file in synchronous calls (open, fstat, readlink: metadata of microseconds,
 * without a thread-pool round trip each), the same checks and errors; the descriptor and its fstat
 * (with nanosecond stamps when `bigint`). The caller closes `fd` (closeSync).
 */
export function openCheckedSync(guard: PathGuard, rp: ResolvedPath, scope: Scope, bigint: true): { fd: number; st: BigIntStats };
export function openCheckedSync(guard: PathGuard, rp: ResolvedPath, scope: Scope, bigint?: false): { fd: number; st: Stats };
export function openCheckedSync(guard: PathGuard, rp: ResolvedPath, scope: Scope, bigint = false): { fd: number; st: Stats | BigIntStats } {
  let fd: number;
  try {
    fd = openSync(rp.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    throw openError(rp, e);
  }
  try {
    const st = bigint ? fstatSync(fd, { bigint: true }) : fstatSync(fd);
    let actual: string | null = null;
    if (HAS_PROC_FD) {
      try {
        actual = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        // as descriptorPath: the platform cannot tell
      }
    }
    checkOpened(guard, rp, scope, 'file', st, actual);
    return { fd, st };
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** openCheckedSync with what its fstat gave, as openVerified names it. For a small file's whole read, made synchronously too. */
export function openVerifiedSync(guard: PathGuard, rp: ResolvedPath, scope: Scope): VerifiedFd {
  const { fd, st } = openCheckedSync(guard, rp, scope);
  return { fd, size: st.size, mode: st.mode, uid: st.uid, gid: st.gid, ino: st.ino, dev: st.dev };
}
