// The pre-walk of GET /v1/fs/tar: lists a directory tree without following links (members the
// guard's read policy refuses are left out, the member and byte caps checked before the first byte
// is sent). Each directory is opened once (O_NOFOLLOW) and its descriptor's real path checked, then
// listed and its entries opened or lstat'ed through that descriptor (`/proc/<pid>/fd/N/name`): a
// file is read from the directory that was checked even if a parent is swapped for a link
// meanwhile, with no per-file path check. Each file's size comes from the fstat of that open, and
// small files are read there and then, within the request's read-ahead hold (prefetch-budget.ts),
// so most files cost one open, fstat, read and close in all. Directories' modes and links' targets
// are read here too. Per-file calls are synchronous, in bounded slices (the event loop runs in
// between): a thread-pool round trip per call is what would otherwise bound the throughput.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Dirent, type Stats } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { HashlineError } from '../core/errors.js';
import { treeTooManyBytes, treeTooManyMembers } from '../core/messages/http.js';
import type { PathGuard } from '../io/path-guard.js';
import { readFdSync } from '../io/read-verified-sync.js';
import { PrefetchHold, TAR_PREFETCH_BYTES_PER_REQUEST } from './prefetch-budget.js';

/** A file as the walk found it through its directory's descriptor. */
export interface WalkedFile {
  mode: number;
  size: number;
  mtimeMs: number;
  /** The content, read during the walk (small files, within the budget). */
  content?: Buffer;
}

export interface TreeEntry {
  /** Relative to the archived directory ('' for the directory itself). */
  rel: string;
  abs: string;
  kind: 'dir' | 'file' | 'link';
  /** Set for files (those that could not be opened as regular files are left out). */
  file?: WalkedFile;
  /** A directory's or link's permission bits and a link's time, from an lstat through the parent's descriptor. */
  mode?: number;
  mtimeMs?: number;
  /** A link's target, read through the parent's descriptor. */
  target?: string;
}

export interface TreeCaps {
  maxTarMembers: number;
  maxTarBytes: number;
}

const HAS_PROC_FD = process.platform === 'linux';
/** `/proc/self/fd/` by the process id: the same links, without resolving `self` for every file. */
const FD_DIR = `/proc/${process.pid}/fd/`;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const WALK_SLICE = 1000;
/** Files up to this size are read during the walk, while the request's hold allows (prefetch-budget.ts). */
const PREFETCH_FILE_LIMIT = 256 * 1024;

function kindOf(e: Dirent): TreeEntry['kind'] | null {
  if (e.isDirectory()) return 'dir';
  if (e.isFile()) return 'file';
  if (e.isSymbolicLink()) return 'link';
  return null;
}

/**
 * The directory `abs` opened and checked to be itself and inside the read policy; the prefix that
 * names entries through its descriptor (`abs` itself where there is no /proc). Null when it is gone
 * or is not that directory any more.
 */
function openDir(guard: PathGuard, abs: string): { fd: number; prefix: string } | null {
  let fd: number;
  try {
    fd = openSync(abs, DIR_FLAGS);
  } catch {
    return null;
  }
  if (!HAS_PROC_FD) return { fd, prefix: `${abs}/` };
  try {
    const actual = readlinkSync(FD_DIR + fd);
    if (actual === abs && guard.admitsReal(actual, 'read')) return { fd, prefix: `${FD_DIR}${fd}/` };
  } catch {
    // fall through: not usable
  }
  closeSync(fd);
  return null;
}

/**
 * `at` opened without following a final link (and without blocking on a fifo) and fstat'ed; null
 * when it is gone, a link, not a regular file, or `accept` refuses the descriptor (or throws).
 * The caller closes the descriptor.
 */
function openRegular(at: string, accept?: (fd: number) => boolean): { fd: number; st: Stats } | null {
  let fd: number;
  try {
    fd = openSync(at, OPEN_FLAGS);
  } catch {
    return null; // removed, or replaced by a link, since it was listed
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile() && (!accept || accept(fd))) return { fd, st };
  } catch {
    // refused: closed below
  }
  closeSync(fd);
  return null;
}

/** Opens a file through its directory's descriptor: its mode, size and time, and its content within the budget. */
function walkFile(at: string, hold: PrefetchHold): WalkedFile | null {
  const opened = openRegular(at);
  if (opened === null) return null;
  const { fd, st } = opened;
  try {
    const file: WalkedFile = { mode: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs };
    if (st.size <= PREFETCH_FILE_LIMIT && hold.take(st.size)) {
      const content = readFdSync(fd, st.size);
      // a file that shrank since the fstat is read again when its turn comes
      if (content.length === st.size) file.content = content;
      else hold.give(st.size);
    }
    return file;
  } finally {
    closeSync(fd);
  }
}

/** A directory's or link's lstat and (for a link) its target, through the parent's descriptor; false when gone or changed. */
function walkOther(at: string, entry: TreeEntry): boolean {
  try {
    const st = lstatSync(at);
    if (entry.kind === 'dir' ? !st.isDirectory() : !st.isSymbolicLink()) return false;
    entry.mode = st.mode & 0o7777;
    entry.mtimeMs = st.mtimeMs;
    if (entry.kind === 'link') entry.target = readlinkSync(at);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lists the tree under `dir` (a real directory path) without following links; throws `too_large`
 * past the caps. Content read ahead is counted in `hold`, which the caller releases when the
 * request ends (TreeTarStream does it when given the same hold; a throw here leaves it to the caller).
 */
export async function walkTree(guard: PathGuard, dir: string, display: string, caps: TreeCaps, hold = new PrefetchHold(TAR_PREFETCH_BYTES_PER_REQUEST)): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [{ rel: '', abs: dir, kind: 'dir' }];
  const stack: TreeEntry[] = [out[0]!];
  let bytes = 0;
  let work = 0;
  while (stack.length > 0) {
    const d = stack.pop()!;
    const opened = openDir(guard, d.abs);
    if (opened === null) continue;
    try {
      if (d.rel === '') d.mode = fstatSync(opened.fd).mode & 0o7777;
      let list: Dirent[];
      try {
        list = readdirSync(opened.prefix, { withFileTypes: true });
      } catch {
        continue;
      }
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const subdirs: TreeEntry[] = [];
      for (const e of list) {
        const kind = kindOf(e);
        if (kind === null) continue;
        const abs = `${d.abs}/${e.name}`;
        if (!guard.admitsReal(abs, 'read')) continue;
        if (out.length >= caps.maxTarMembers) throw new HashlineError('too_large', treeTooManyMembers(display, caps.maxTarMembers));
        const entry: TreeEntry = { rel: d.rel === '' ? e.name : `${d.rel}/${e.name}`, abs, kind };
        if (kind === 'file') {
          const file = walkFile(opened.prefix + e.name, hold);
          if (file === null) continue;
          bytes += file.size;
          if (bytes > caps.maxTarBytes) throw new HashlineError('too_large', treeTooManyBytes(display, caps.maxTarBytes));
          entry.file = file;
        } else if (!walkOther(opened.prefix + e.name, entry)) continue;
        out.push(entry);
        if (kind === 'dir') subdirs.push(entry);
        if (++work % WALK_SLICE === 0) await yieldToLoop();
      }
      for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    } finally {
      closeSync(opened.fd);
    }
  }
  return out;
}

/**
 * Opens the member file `abs` again, with every check: no final link (O_NOFOLLOW), a regular
 * file, and (on Linux) the descriptor's real path must be `abs` and pass the read policy. Null
 * when it is gone or any check fails; the caller closes the descriptor.
 */
export function openMember(guard: PathGuard, abs: string): { fd: number; mode: number; size: number; mtimeMs: number } | null {
  const opened = openRegular(abs, (fd) => (HAS_PROC_FD ? readlinkSync(FD_DIR + fd) : abs) === abs && guard.admitsReal(abs, 'read'));
  return opened && { fd: opened.fd, mode: opened.st.mode & 0o7777, size: opened.st.size, mtimeMs: opened.st.mtimeMs };
}
