// The pre-walk of GET /v1/fs/tar: lists a directory tree without following links (members the
// guard's read policy refuses are left out, the member and byte caps checked before the first byte
// is sent). Each directory is opened once (O_NOFOLLOW) and its descriptor's real path checked, then
// listed and its entries opened or lstat'ed through that descriptor (`/proc/<pid>/fd/N/name`): a
// file is read from the directory that was checked even if a parent is swapped for a link
// meanwhile, with no per-file path check. A directory's files go in slices of SLICE_FILES to
// tar-walk-slices.ts, which packs them (open, fstat, and for a small file its header, content and
// padding: tar-pack-files.ts) on this thread or on the read thread, and puts them into the
// archive's runs (tar-pack-arena.ts) in order within the request's read-ahead hold
// (prefetch-budget.ts). Directories' and links' headers are written here. Per-file calls are
// synchronous, in bounded slices (the event loop runs in between): a thread-pool round trip per
// call is what would otherwise bound the throughput. A file counts against the member cap from its
// listing (one gone by the time it is opened is left out of the archive but stays counted).

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, type Dirent } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { HashlineError } from '../../core/errors/errors.js';
import { treeTooManyMembers } from '../../core/messages/http.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { PrefetchHold, TAR_PREFETCH_BYTES_PER_REQUEST } from './prefetch-budget.js';
import { HEADER_ROOM, writeOtherHeader } from './tar-header.js';
import { PackArena, type PackedRun } from './tar-pack-arena.js';
import { openRegular } from './tar-pack-files.js';
import { tarReadPool, type TarReadPool } from './tar-read-pool.js';
import type { TreeEntry } from './tar-tree-entry.js';
import { SLICE_FILES, WalkSlices, type OpenDir } from './tar-walk-slices.js';

export type { TreeEntry } from './tar-tree-entry.js';


/** The archive in order: runs of members the walk wrote (tar-pack-arena.ts) and members left for the writer. */
export type TreeItem = TreeEntry | PackedRun;

export interface TreeCaps {
  maxTarMembers: number;
  maxTarBytes: number;
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
function openDir(guard: PathGuard, abs: string): OpenDir | null {
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
 * Lists the tree under `dir` (a real directory path) without following links, and packs it as it
 * goes (tar-pack-arena.ts; slices of files also on `pool`'s thread) while `hold` takes the bytes;
 * throws `too_large` past the caps. What is packed stays counted in `hold`, which the caller
 * releases when the request ends (TreeTarStream does it when given the same hold; a throw here
 * leaves it to the caller).
 */
export async function walkTree(
  guard: PathGuard,
  dir: string,
  display: string,
  caps: TreeCaps,
  hold = new PrefetchHold(TAR_PREFETCH_BYTES_PER_REQUEST),
  pool: TarReadPool = tarReadPool,
): Promise<TreeItem[]> {
  const arena = new PackArena<TreeEntry>([], hold);
  const slices = new WalkSlices(arena, { maxTarBytes: caps.maxTarBytes, display }, (e) => packOther(arena, e), pool);
  const root: TreeEntry = { rel: '', abs: dir, kind: 'dir' };
  const stack: TreeEntry[] = [root];
  // members listed so far: a file counts from its listing (one that is gone when read is left out of the archive, still counted here)
  let members = 1;
  let work = 0;
  try {
    while (stack.length > 0) {
      const d = stack.pop()!;
      const opened = openDir(guard, d.abs);
      if (opened === null) {
        if (d === root) arena.add(root); // no mode: left out by the writer, as a directory that went away
        continue;
      }
      try {
        if (d === root) {
          root.mode = fstatSync(opened.fd).mode & 0o7777;
          slices.other(root);
        }
        let list: Dirent[];
        try {
          list = readdirSync(opened.prefix, { withFileTypes: true });
        } catch {
          continue;
        }
        list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const subdirs: TreeEntry[] = [];
        const relDir = d.rel === '' ? '' : `${d.rel}/`;
        let names: string[] = [];
        let rels: string[] = [];
        for (const e of list) {
          const kind = kindOf(e);
          if (kind === null) continue;
          const abs = `${d.abs}/${e.name}`;
          if (!guard.admitsReal(abs, 'read')) continue;
          if (members >= caps.maxTarMembers) throw new HashlineError('too_large', treeTooManyMembers(display, caps.maxTarMembers));
          const rel = relDir + e.name;
          if (kind === 'file') {
            names.push(e.name);
            rels.push(rel);
            if (names.length === SLICE_FILES) {
              slices.files(opened, relDir, names, rels);
              names = [];
              rels = [];
              await slices.pace();
            }
          } else {
            const entry: TreeEntry = { rel, abs, kind };
            if (!walkOther(opened.prefix + e.name, entry)) continue;
            if (names.length > 0) {
              slices.files(opened, relDir, names, rels);
              names = [];
              rels = [];
            }
            slices.other(entry);
            if (kind === 'dir') subdirs.push(entry);
          }
          members++;
          if (++work % WALK_SLICE === 0) await yieldToLoop();
        }
        if (names.length > 0) slices.files(opened, relDir, names, rels);
        for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
      } finally {
        slices.listed(opened);
      }
      await slices.pace();
    }
    await slices.finish();
  } finally {
    await slices.settle();
  }
  arena.flush();
  return arena.out;
}

/** A directory's or link's header into the arena, or the entry for the writer when the hold is full. */
function packOther(arena: PackArena<TreeEntry>, e: TreeEntry): void {
  const buf = arena.room(HEADER_ROOM);
  const end = arena.at + writeOtherHeader(buf, arena.at, e.kind as 'dir' | 'link', e.rel, e.mode!, e.mtimeMs ?? 0, e.target ?? '');
  if (!arena.keep(end)) arena.add(e);
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
