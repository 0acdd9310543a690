// The listing of GET /v1/fs/tar, made before the status line: lists a directory tree without
// following links (members the guard's read policy refuses are left out), takes each file's size
// with one lstat, and checks the member and byte caps, so a 413 comes before any byte. Each
// directory is opened (O_NOFOLLOW) and its descriptor's real path checked, then listed, and its
// entries lstat'ed through that descriptor (`/proc/<pid>/fd/N/name`: directories' and links'
// headers come from those lstats, files' sizes from tar-list-sizes.ts, mostly on the read thread). Nothing is read here: the files are opened and packed by
// tar-pack-listing.ts (through each directory opened and checked again) once the listing has
// ended; nothing is sent before it ends. A file
// counts against the member cap from its listing (one gone by the time it is opened is left out of
// the archive but stays counted), and against the byte cap with the size the listing saw.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Dirent } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { HashlineError } from '../../core/errors/errors.js';
import { treeTooManyBytes, treeTooManyMembers } from '../../core/messages/http.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { PrefetchHold, TAR_PREFETCH_BYTES_PER_REQUEST } from './prefetch-budget.js';
import { ListingSizes, MAX_PENDING } from './tar-list-sizes.js';
import { openRegular } from './tar-pack-files.js';
import { tarReadPool, type TarReadPool } from './tar-read-pool.js';
import type { TreeEntry } from './tar-tree-entry.js';
import type { OpenDir } from './tar-walk-slices.js';

export type { TreeEntry } from './tar-tree-entry.js';

export interface TreeCaps {
  maxTarMembers: number;
  maxTarBytes: number;
}

/** One listed directory: its members in archive order, a file by its name, a directory or link by its entry. */
export interface ListedDir {
  abs: string;
  /** The archive names of its members are `relDir + name` ('' for the archived directory itself). */
  relDir: string;
  members: Array<string | TreeEntry>;
}

/** What the packing needs of a listed tree (tar-pack-listing.ts): its directories in archive order. */
export interface TreeListing {
  guard: PathGuard;
  /** The archived directory's own entry (no mode when it could not be opened: then nothing else is listed). */
  root: TreeEntry;
  /** Directories in archive order (depth first, names sorted), each listed once. */
  dirs: ListedDir[];
  /** The request's read-ahead hold (the packing takes from it) and the read thread's pool. */
  hold: PrefetchHold;
  pool: TarReadPool;
  /** The listing has ended (every directory is in `dirs`, `root.mode` is set unless it went away). */
  complete: boolean;
  /** Called (once, then cleared) when a directory is added or the listing ends: a packing started early waits for it. */
  onGrow: (() => void) | null;
}

/** An empty listing of the real directory `dir`, for listTree to fill. */
export function newListing(guard: PathGuard, dir: string, hold = new PrefetchHold(TAR_PREFETCH_BYTES_PER_REQUEST), pool: TarReadPool = tarReadPool): TreeListing {
  return { guard, root: { rel: '', abs: dir, kind: 'dir' }, dirs: [], hold, pool, complete: false, onGrow: null };
}

function grew(listing: TreeListing): void {
  const go = listing.onGrow;
  listing.onGrow = null;
  go?.();
}

const HAS_PROC_FD = process.platform === 'linux';
/** `/proc/self/fd/` by the process id: the same links, without resolving `self` for every file. */
const FD_DIR = `/proc/${process.pid}/fd/`;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const WALK_SLICE = 1000;

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
export function openDir(guard: PathGuard, abs: string): OpenDir | null {
  let fd: number;
  try {
    fd = openSync(abs, DIR_FLAGS);
  } catch {
    return null;
  }
  if (!HAS_PROC_FD) return { fd, prefix: `${abs}/`, abs, users: 0, listed: false };
  try {
    const actual = readlinkSync(FD_DIR + fd);
    if (actual === abs && guard.admitsReal(actual, 'read')) return { fd, prefix: `${FD_DIR}${fd}/`, abs, users: 0, listed: false };
  } catch {
    // fall through: not usable
  }
  closeSync(fd);
  return null;
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
 * Lists the tree under `dir` (a real directory path) without following links and checks the caps
 * (throws `too_large` past either); nothing is opened but directories, nothing is read. `hold` and
 * `pool` go with the listing to its packing (tar-writer.ts).
 */
export async function walkTree(guard: PathGuard, dir: string, display: string, caps: TreeCaps, hold?: PrefetchHold, pool?: TarReadPool): Promise<TreeListing> {
  const listing = newListing(guard, dir, hold, pool);
  await listTree(listing, display, caps);
  return listing;
}

/** Fills `listing` (see walkTree), marking it complete at the end; throws `too_large` past a cap. */
export async function listTree(listing: TreeListing, display: string, caps: TreeCaps): Promise<void> {
  try {
    await list(listing, display, caps);
  } finally {
    listing.complete = true;
    grew(listing);
  }
}

async function list(listing: TreeListing, display: string, caps: TreeCaps): Promise<void> {
  const { guard, root } = listing;
  const stack: TreeEntry[] = [root];
  // members listed so far: a file counts from its listing (one that is gone when read is left out of the archive, still counted here)
  let members = 1;
  let work = 0;
  const sizes = new ListingSizes(listing.pool, caps.maxTarBytes, () => {
    throw new HashlineError('too_large', treeTooManyBytes(display, caps.maxTarBytes));
  });
  try {
    while (stack.length > 0) {
      await listDir(stack.pop()!);
      await sizes.settle(MAX_PENDING);
    }
    await sizes.settle(0);
  } finally {
    await sizes.close();
  }

  async function listDir(d: TreeEntry): Promise<void> {
    const opened = openDir(guard, d.abs);
    if (opened === null) return; // gone or changed: its header (if listed) stays, its contents are left out
    const subdirs: TreeEntry[] = [];
    const files: string[] = [];
    let handed = false;
    try {
      if (d === root) root.mode = fstatSync(opened.fd).mode & 0o7777;
      let list: Dirent[];
      try {
        list = readdirSync(opened.prefix, { withFileTypes: true });
      } catch {
        return;
      }
      list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const relDir = d.rel === '' ? '' : `${d.rel}/`;
      const listed: ListedDir = { abs: d.abs, relDir, members: [] };
      for (const e of list) {
        const kind = kindOf(e);
        if (kind === null) continue;
        const abs = `${d.abs}/${e.name}`;
        if (!guard.admitsReal(abs, 'read')) continue;
        if (members >= caps.maxTarMembers) throw new HashlineError('too_large', treeTooManyMembers(display, caps.maxTarMembers));
        if (kind === 'file') {
          // counted from its listing; its size (ListingSizes) for the byte cap: one gone by then counts nothing
          members++;
          files.push(e.name);
          listed.members.push(e.name);
        } else {
          const entry: TreeEntry = { rel: relDir + e.name, abs, kind };
          if (!walkOther(opened.prefix + e.name, entry)) continue;
          members++;
          listed.members.push(entry);
          if (kind === 'dir') subdirs.push(entry);
        }
        if (++work % WALK_SLICE === 0) await yieldToLoop();
      }
      if (listed.members.length > 0) {
        listing.dirs.push(listed);
        grew(listing);
      }
      // the descriptor goes with the files' sizes (closed once they are in)
      handed = files.length > 0;
      if (handed) sizes.add(opened.fd, opened.prefix, files);
    } finally {
      if (!handed) closeSync(opened.fd);
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
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
