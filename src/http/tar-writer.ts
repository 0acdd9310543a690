// The packer of GET /v1/fs/tar: a pre-walk that lists a directory tree without following links
// (members the guard's read policy refuses are left out, caps checked), and a Readable that writes
// that list as an uncompressed ustar/pax archive with npm `tar`'s header encoder.
//
// Each directory is opened once (O_NOFOLLOW) and its descriptor's real path checked, then listed
// and its files opened through that descriptor (`/proc/<pid>/fd/N/name`, O_NOFOLLOW): a file is
// read from the directory that was checked even if a parent is swapped for a link meanwhile, with
// no per-file path check. The walk takes each file's size from the fstat of that open (the byte
// cap is checked before the first byte is sent) and, up to a budget, reads small files then and
// there, so most files cost one open, fstat, read and close in all. Files past the budget are
// opened again when their turn comes, with the full check (O_NOFOLLOW, fstat, the descriptor's real
// path). Directories' modes and links' targets are read in the walk too, through the same
// descriptor. Per-file calls are synchronous, in bounded slices (the event loop runs in between): a
// thread-pool round trip per call is what would otherwise bound the throughput. Symlinks are
// archived as links, hard links as separate files, devices, fifos and sockets never.

import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Dirent } from 'node:fs';
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { Header, Pax, type HeaderData } from 'tar';
import { HashlineError } from '../core/errors.js';
import { treeTooManyBytes, treeTooManyMembers } from '../core/messages/http.js';
import type { PathGuard } from '../io/path-guard.js';
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
const BATCH_BYTES = 1024 * 1024;
const BATCH_MEMBERS = 256;
const WALK_SLICE = 1000;
/** Files up to this size are read during the walk, while the request's hold allows (prefetch-budget.ts). */
const PREFETCH_FILE_LIMIT = 256 * 1024;

function kindOf(e: Dirent): TreeEntry['kind'] | null {
  if (e.isDirectory()) return 'dir';
  if (e.isFile()) return 'file';
  if (e.isSymbolicLink()) return 'link';
  return null;
}

/** Reads `size` bytes of `fd` from the start; null when the file shrank meanwhile. */
function readWhole(fd: number, size: number): Buffer | null {
  const buf = Buffer.allocUnsafe(size);
  let n = 0;
  while (n < size) {
    const got = readSync(fd, buf, n, size - n, n);
    if (got === 0) return null;
    n += got;
  }
  return buf;
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

/** Opens a file through its directory's descriptor: its mode, size and time, and its content within the budget. */
function walkFile(at: string, hold: PrefetchHold): WalkedFile | null {
  let fd: number;
  try {
    fd = openSync(at, OPEN_FLAGS);
  } catch {
    return null; // removed, or replaced by a link, since the listing
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const file: WalkedFile = { mode: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs };
    if (st.size <= PREFETCH_FILE_LIMIT && hold.take(st.size)) {
      const content = readWhole(fd, st.size);
      if (content !== null) file.content = content;
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

function headerBlocks(data: HeaderData): Buffer[] {
  const h = new Header(data);
  const needPax = h.encode();
  const blocks: Buffer[] = [];
  if (needPax) blocks.push(new Pax({ path: data.path, linkpath: data.linkpath, size: data.size, mtime: data.mtime } as HeaderData).encode());
  blocks.push(h.block!);
  return blocks;
}

const padding = (size: number) => (512 - (size % 512)) % 512;

const TYPE_FLAG = { File: '0', SymbolicLink: '2', Directory: '5' } as const;
type MemberType = keyof typeof TYPE_FLAG;
const MAX_OCTAL_11 = 8 ** 11;

/** `value` as zero-padded octal digits and a NUL in `width` bytes at `off` (no string made). */
function octal(buf: Buffer, off: number, width: number, value: number): void {
  let v = value;
  for (let i = off + width - 2; i >= off; i--) {
    buf[i] = 0x30 + (v % 8);
    v = Math.floor(v / 8);
  }
  buf[off + width - 1] = 0;
}

/**
 * A ustar header block per member type with every fixed field already in place: uid and gid 0,
 * the checksum field as spaces (how the sum is taken), the type flag and the magic. `sum` is the
 * byte sum of the template; the fields left zero are the ones writeHeader fills per member.
 */
const TEMPLATES = Object.fromEntries(
  (Object.keys(TYPE_FLAG) as MemberType[]).map((type) => {
    const b = Buffer.alloc(512);
    octal(b, 108, 8, 0);
    octal(b, 116, 8, 0);
    b.fill(0x20, 148, 156);
    b.write(TYPE_FLAG[type], 156, 1, 'latin1');
    b.write('ustar\u000000', 257, 8, 'latin1');
    let sum = 0;
    for (const x of b) sum += x;
    return [type, { block: b, sum }];
  }),
) as Record<MemberType, { block: Buffer; sum: number }>;

function byteSum(buf: Buffer, from: number, to: number): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += buf[i]!;
  return sum;
}

/**
 * Writes the header of one member at `off`: a plain ustar block when the names fit (the common
 * case, written in place over a template), else npm `tar`'s pax encoding. Returns the bytes written.
 */
function writeHeader(buf: Buffer, off: number, type: MemberType, name: string, mode: number, size: number, mtimeMs: number, linkname = ''): number {
  const nameLen = Buffer.byteLength(name);
  const linkLen = Buffer.byteLength(linkname);
  if (nameLen > 100 || linkLen > 100 || size >= MAX_OCTAL_11) {
    let n = 0;
    const data: HeaderData = { path: name, mode, size, type, ...(type === 'Directory' ? {} : { mtime: new Date(mtimeMs) }), ...(linkname ? { linkpath: linkname } : {}) };
    for (const b of headerBlocks(data)) n += b.copy(buf, off + n);
    return n;
  }
  const template = TEMPLATES[type];
  template.block.copy(buf, off);
  buf.write(name, off, 100, 'utf8');
  octal(buf, off + 100, 8, mode);
  octal(buf, off + 124, 12, size);
  octal(buf, off + 136, 12, type === 'Directory' ? 0 : Math.floor(mtimeMs / 1000));
  if (linkname) buf.write(linkname, off + 157, 100, 'utf8');
  // the template's sum plus the fields written here (zero in the template)
  const sum = template.sum + byteSum(buf, off, off + 108) + byteSum(buf, off + 124, off + 148) + (linkname ? byteSum(buf, off + 157, off + 257) : 0);
  octal(buf, off + 148, 7, sum);
  buf[off + 155] = 0x20;
  return 512;
}

interface OpenFile {
  /** -1 when the content was read in the walk (`content`). */
  fd: number;
  size: number;
  pos: number;
  content?: Buffer;
}

/** Room kept past a batch for one member's headers (pax names up to PATH_MAX) and padding. */
const SLACK = 16 * 1024;

/** The archive of a walked tree, produced on demand into one buffer per batch. */
export class TreeTarStream extends Readable {
  private next = 0;
  private file: OpenFile | null = null;
  private finished = false;

  constructor(
    private readonly entries: readonly TreeEntry[],
    private readonly guard: PathGuard,
    /** What the walk read ahead is counted in: given back as it is sent, and all of it when the stream ends. */
    private readonly hold?: PrefetchHold,
  ) {
    super({ highWaterMark: BATCH_BYTES });
  }

  /** Writes one entry's header at `off` (and opens a file's content); 0 when it is gone or changed. */
  private begin(e: TreeEntry, buf: Buffer, off: number): number {
    const name = e.rel === '' ? './' : `./${e.rel}`;
    if (e.kind === 'file') return this.beginFile(e, name, buf, off);
    // directories and links as the walk saw them through their parent's descriptor
    if (e.mode === undefined) return 0;
    if (e.kind === 'dir') return writeHeader(buf, off, 'Directory', `${name.replace(/\/$/, '')}/`, e.mode, 0, 0);
    return writeHeader(buf, off, 'SymbolicLink', name, e.mode, 0, e.mtimeMs ?? 0, e.target ?? '');
  }

  /**
   * A file's header. Content read in the walk is copied in at once (a short file: the walk's
   * open is the one that counts); otherwise the file is opened again here with every check
   * (O_NOFOLLOW, fstat, the descriptor's real path) and left open for continueFile.
   */
  private beginFile(e: TreeEntry, name: string, buf: Buffer, off: number): number {
    const walked = e.file;
    if (walked?.content !== undefined) {
      const content = walked.content;
      delete walked.content; // held no longer than needed
      this.hold?.give(content.length);
      const n = writeHeader(buf, off, 'File', name, walked.mode, content.length, walked.mtimeMs);
      const end = off + n + content.length + padding(content.length);
      if (end > buf.length) {
        // past this batch's buffer: the content goes out over the next batches, as an unread file's would
        this.file = { fd: -1, size: content.length, pos: 0, content };
        return n;
      }
      content.copy(buf, off + n);
      buf.fill(0, off + n + content.length, end);
      return end - off;
    }
    let fd: number;
    try {
      fd = openSync(e.abs, OPEN_FLAGS);
    } catch {
      return 0; // removed, or replaced by a link, since the walk
    }
    try {
      const fst = fstatSync(fd);
      const opened = HAS_PROC_FD ? readlinkSync(FD_DIR + fd) : e.abs;
      if (!fst.isFile() || opened !== e.abs || !this.guard.admitsReal(opened, 'read')) {
        closeSync(fd);
        return 0;
      }
      this.file = { fd, size: fst.size, pos: 0 };
      return writeHeader(buf, off, 'File', name, fst.mode & 0o7777, fst.size, fst.mtimeMs);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Reads the open file's content into `buf` from `off` (zero-filled if it shrank), then its padding. */
  private continueFile(buf: Buffer, off: number): number {
    const f = this.file!;
    const want = Math.min(f.size - f.pos, buf.length - 512 - off);
    let n = 0;
    if (f.content !== undefined) n = f.content.copy(buf, off, f.pos, f.pos + want);
    while (n < want) {
      const got = readSync(f.fd, buf, off + n, want - n, f.pos + n);
      if (got === 0) {
        buf.fill(0, off + n, off + want);
        break;
      }
      n += got;
    }
    f.pos += want;
    if (f.pos < f.size) return want;
    const pad = padding(f.size);
    buf.fill(0, off + want, off + want + pad);
    if (f.fd !== -1) closeSync(f.fd);
    this.file = null;
    return want + pad;
  }

  override _read(): void {
    if (this.finished) return;
    const buf = Buffer.allocUnsafe(BATCH_BYTES + SLACK);
    let off = 0;
    let members = 0;
    try {
      while (off < BATCH_BYTES && members < BATCH_MEMBERS) {
        if (this.file) {
          off += this.continueFile(buf, off);
          continue;
        }
        const e = this.entries[this.next];
        if (!e) {
          buf.fill(0, off, off + 1024);
          off += 1024;
          this.finished = true;
          break;
        }
        this.next++;
        members++;
        off += this.begin(e, buf, off);
      }
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    this.push(buf.subarray(0, off));
    if (this.finished) this.push(null);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.hold?.release();
    if (this.file && this.file.fd !== -1) {
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
