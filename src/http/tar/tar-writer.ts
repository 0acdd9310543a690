// The archive of GET /v1/fs/tar: a Readable over the items of the pre-walk (tar-walk.ts). Runs
// of members the walk packed (tar-pack-arena.ts) are sent as they are; other members are written
// into one buffer per batch (about 1 MiB or 256 members per `_read`, then the event loop runs
// again), files among them opened again with every check (tar-walk.ts `openMember`) when their
// turn comes. Symlinks are archived as links, hard links as separate files, devices, fifos and
// sockets never. Headers: tar-header.ts.

import { closeSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { PathGuard } from '../../io/guard/path-guard.js';
import type { PrefetchHold } from './prefetch-budget.js';
import { HEADER_ROOM, memberName, padding, writeHeader, writeOtherHeader } from './tar-header.js';
import { isPackedRun } from './tar-pack-arena.js';
import { openMember, type TreeEntry, type TreeItem } from './tar-walk.js';

const BATCH_BYTES = 1024 * 1024;
const BATCH_MEMBERS = 256;
const END_OF_ARCHIVE = 1024;

interface OpenFile {
  fd: number;
  size: number;
  pos: number;
}

/** The archive of a walked tree, produced on demand: the walk's runs as they are, other members into one buffer per batch. */
export class TreeTarStream extends Readable {
  private next = 0;
  private file: OpenFile | null = null;
  private finished = false;

  constructor(
    /** The walk's items, owned by the stream from here (each is let go once sent). */
    private readonly items: Array<TreeItem | null>,
    private readonly guard: PathGuard,
    /** What the walk packed is counted in: given back as it is sent, and all of it when the stream ends. */
    private readonly hold?: PrefetchHold,
  ) {
    super({ highWaterMark: BATCH_BYTES });
  }

  /** Writes one entry's header at `off` (and opens a file's content); 0 when it is gone or changed. */
  private begin(e: TreeEntry, buf: Buffer, off: number): number {
    if (e.kind === 'file') return this.beginFile(e, buf, off);
    // directories and links as the walk saw them through their parent's descriptor
    if (e.mode === undefined) return 0;
    return writeOtherHeader(buf, off, e.kind, e.rel, e.mode, e.mtimeMs ?? 0, e.target ?? '');
  }

  /**
   * A file's header: the file is opened again here with every check (O_NOFOLLOW, fstat, the
   * descriptor's real path) and left open for continueFile.
   */
  private beginFile(e: TreeEntry, buf: Buffer, off: number): number {
    const m = openMember(this.guard, e.abs);
    if (m === null) return 0;
    this.file = { fd: m.fd, size: m.size, pos: 0 };
    return writeHeader(buf, off, 'File', memberName(e.rel), m.mode, m.size, m.mtimeMs);
  }

  /** Reads the open file's content into `buf` from `off` (zero-filled if it shrank), then its padding. */
  private continueFile(buf: Buffer, off: number): number {
    const f = this.file!;
    const want = Math.min(f.size - f.pos, buf.length - 512 - off);
    let n = 0;
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
    closeSync(f.fd);
    this.file = null;
    return want + pad;
  }

  /** The next item when it is a run the walk packed (and no file is half sent), taken from the list. */
  private takeRun(): Buffer | null {
    const item = this.items[this.next];
    if (this.file !== null || item === undefined || item === null || !isPackedRun(item)) return null;
    this.items[this.next++] = null;
    this.hold?.give(item.held);
    return item.bytes;
  }

  /** Members left for the writer, up to a batch or the next run; the bytes written. */
  private batch(buf: Buffer): number {
    let off = 0;
    let members = 0;
    while (off < BATCH_BYTES && members < BATCH_MEMBERS) {
      if (this.file) {
        off += this.continueFile(buf, off);
        continue;
      }
      const item = this.items[this.next];
      if (item === undefined) {
        buf.fill(0, off, off + END_OF_ARCHIVE);
        off += END_OF_ARCHIVE;
        this.finished = true;
        break;
      }
      if (item !== null && isPackedRun(item)) break;
      this.items[this.next++] = null;
      members++;
      if (item !== null) off += this.begin(item, buf, off);
    }
    return off;
  }

  override _read(): void {
    if (this.finished) return;
    try {
      for (;;) {
        const run = this.takeRun();
        if (run !== null) {
          this.push(run);
          if (this.next === this.items.length) {
            this.finished = true;
            this.push(Buffer.alloc(END_OF_ARCHIVE));
          }
          break;
        }
        const buf = Buffer.allocUnsafe(BATCH_BYTES + HEADER_ROOM);
        const n = this.batch(buf);
        // nothing written (members that went away, right before a run): go on to the run
        if (n === 0 && !this.finished) continue;
        this.push(buf.subarray(0, n));
        break;
      }
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    if (this.finished) this.push(null);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.hold?.release();
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
