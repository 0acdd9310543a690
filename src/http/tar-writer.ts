// The archive of GET /v1/fs/tar: a Readable that writes the entries of the pre-walk (tar-walk.ts)
// as an uncompressed ustar/pax archive, into one buffer per batch (about 1 MiB or 256 members per
// `_read`, then the event loop runs again). Content the walk read is copied in; other files are
// opened again with every check (tar-walk.ts `openMember`) when their turn comes. Symlinks are
// archived as links, hard links as separate files, devices, fifos and sockets never. Plain
// headers are written over a per-type template; long names take npm `tar`'s pax encoder.

import { closeSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Header, Pax, type HeaderData } from 'tar';
import type { PathGuard } from '../io/path-guard.js';
import type { PrefetchHold } from './prefetch-budget.js';
import { openMember, type TreeEntry } from './tar-walk.js';

const BATCH_BYTES = 1024 * 1024;
const BATCH_MEMBERS = 256;

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
    const m = openMember(this.guard, e.abs);
    if (m === null) return 0;
    this.file = { fd: m.fd, size: m.size, pos: 0 };
    return writeHeader(buf, off, 'File', name, m.mode, m.size, m.mtimeMs);
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
