// The packer of GET /v1/fs/tar: a pre-walk that lists a directory tree without following links
// (members the guard's read policy refuses are left out, caps checked), and a Readable that writes
// that list as an uncompressed ustar/pax archive with npm `tar`'s header encoder.
//
// Per-file system calls are synchronous, in bounded batches (about 1 MiB or 256 members per
// `_read`, then the event loop runs again): a tree of small files costs several calls per file,
// and a thread-pool round trip for each is what would otherwise bound the throughput. Every file
// is opened with O_NOFOLLOW and its descriptor's real path checked (as io/open-verified.ts does),
// so a link swapped in after the walk is never read through. Symlinks are archived as links, hard
// links as separate files, devices, fifos and sockets never.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Dirent } from 'node:fs';
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Header, Pax, type HeaderData } from 'tar';
import { HashlineError } from '../core/errors.js';
import { treeTooManyBytes, treeTooManyMembers } from '../core/messages/http.js';
import type { PathGuard } from '../io/path-guard.js';

export interface TreeEntry {
  /** Relative to the archived directory ('' for the directory itself). */
  rel: string;
  abs: string;
  kind: 'dir' | 'file' | 'link';
}

export interface TreeCaps {
  maxTarMembers: number;
  maxTarBytes: number;
}

const HAS_PROC_FD = process.platform === 'linux';
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const BATCH_BYTES = 1024 * 1024;
const BATCH_MEMBERS = 256;
const WALK_SLICE = 1000;

function kindOf(e: Dirent): TreeEntry['kind'] | null {
  if (e.isDirectory()) return 'dir';
  if (e.isFile()) return 'file';
  if (e.isSymbolicLink()) return 'link';
  return null;
}

/** Lists the tree under `dir` (a real directory path) without following links; throws `too_large` past the caps. */
export async function walkTree(guard: PathGuard, dir: string, display: string, caps: TreeCaps): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [{ rel: '', abs: dir, kind: 'dir' }];
  const stack: TreeEntry[] = [out[0]!];
  let bytes = 0;
  let work = 0;
  while (stack.length > 0) {
    const d = stack.pop()!;
    let list: Dirent[];
    try {
      list = readdirSync(d.abs, { withFileTypes: true });
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
        try {
          bytes += lstatSync(abs).size;
        } catch {
          continue;
        }
        if (bytes > caps.maxTarBytes) throw new HashlineError('too_large', treeTooManyBytes(display, caps.maxTarBytes));
      }
      out.push(entry);
      if (kind === 'dir') subdirs.push(entry);
      if (++work % WALK_SLICE === 0) await yieldToLoop();
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
  return out;
}

function headerBlocks(data: HeaderData): Buffer[] {
  const h = new Header(data);
  const needPax = h.encode();
  const blocks: Buffer[] = [];
  if (needPax) blocks.push(new Pax({ path: data.path, linkpath: data.linkpath, size: data.size, mtime: data.mtime } as HeaderData).encode());
  blocks.push(h.block!);
  return blocks;
}

const padding = (size: number) => (512 - (size % 512)) % 512;

interface OpenFile {
  fd: number;
  size: number;
  pos: number;
}

/** The archive of a walked tree, produced on demand. */
export class TreeTarStream extends Readable {
  private next = 0;
  private file: OpenFile | null = null;
  private finished = false;

  constructor(
    private readonly entries: readonly TreeEntry[],
    private readonly guard: PathGuard,
  ) {
    super({ highWaterMark: BATCH_BYTES });
  }

  /** Header blocks for one entry (and opens a file's content), or null when it is gone or changed. */
  private begin(e: TreeEntry, parts: Buffer[]): number {
    const name = e.rel === '' ? './' : `./${e.rel}`;
    if (e.kind === 'file') return this.beginFile(e, name, parts);
    const st = lstatSync(e.abs, { throwIfNoEntry: false });
    if (st === undefined) return 0;
    if (e.kind === 'dir') {
      if (!st.isDirectory()) return 0;
      const blocks = headerBlocks({ path: `${name.replace(/\/$/, '')}/`, mode: st.mode & 0o7777, size: 0, type: 'Directory' });
      parts.push(...blocks);
      return blocks.length * 512;
    }
    if (!st.isSymbolicLink()) return 0;
    const blocks = headerBlocks({ path: name, mode: st.mode & 0o7777, size: 0, mtime: st.mtime, type: 'SymbolicLink', linkpath: readlinkSync(e.abs) });
    parts.push(...blocks);
    return blocks.length * 512;
  }

  /** A file's header, its content left open; O_NOFOLLOW + fstat stand in for an lstat. */
  private beginFile(e: TreeEntry, name: string, parts: Buffer[]): number {
    let fd: number;
    try {
      fd = openSync(e.abs, OPEN_FLAGS);
    } catch {
      return 0; // removed, or replaced by a link, since the walk
    }
    try {
      const fst = fstatSync(fd);
      const opened = HAS_PROC_FD ? readlinkSync(`/proc/self/fd/${fd}`) : e.abs;
      if (!fst.isFile() || opened !== e.abs || !this.guard.admitsReal(opened, 'read')) {
        closeSync(fd);
        return 0;
      }
      const blocks = headerBlocks({ path: name, mode: fst.mode & 0o7777, size: fst.size, mtime: fst.mtime, type: 'File' });
      parts.push(...blocks);
      this.file = { fd, size: fst.size, pos: 0 };
      return blocks.length * 512;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Up to `room` bytes of the open file's content (zero-filled if it shrank), then its padding. */
  private continueFile(parts: Buffer[], room: number): number {
    const f = this.file!;
    const want = Math.min(f.size - f.pos, Math.max(room, 64 * 1024));
    let n = 0;
    if (want > 0) {
      const buf = Buffer.allocUnsafe(want);
      while (n < want) {
        const got = readSync(f.fd, buf, n, want - n, f.pos + n);
        if (got === 0) {
          buf.fill(0, n);
          n = want;
          break;
        }
        n += got;
      }
      parts.push(buf);
      f.pos += want;
    }
    if (f.pos < f.size) return n;
    const pad = padding(f.size);
    if (pad > 0) parts.push(Buffer.alloc(pad));
    closeSync(f.fd);
    this.file = null;
    return n + pad;
  }

  override _read(): void {
    if (this.finished) return;
    const parts: Buffer[] = [];
    let bytes = 0;
    let members = 0;
    try {
      while (bytes < BATCH_BYTES && members < BATCH_MEMBERS) {
        if (this.file) {
          bytes += this.continueFile(parts, BATCH_BYTES - bytes);
          continue;
        }
        const e = this.entries[this.next++];
        if (!e) {
          parts.push(Buffer.alloc(1024));
          this.finished = true;
          break;
        }
        members++;
        bytes += this.begin(e, parts);
      }
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    if (this.finished) this.push(null);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.file) {
      try {
        closeSync(this.file.fd);
      } catch {
        // already closed
      }
      this.file = null;
    }
    callback(error);
  }
}
