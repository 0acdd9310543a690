// The archive of GET /v1/fs/tar: a Readable over a listed tree (tar-walk.ts), packed while it is
// sent (tar-pack-listing.ts, started at the first read, or earlier by `pack`, to begin as soon
// as the listing ends). Runs of members the packing wrote
// (tar-pack-arena.ts) are sent as they are; other members are written into one buffer per batch
// (about 1 MiB or 256 members per `_read`, then the event loop runs again), files among them
// opened again with every check (tar-walk.ts `openMember`) when their turn comes. The packing
// stays at most AHEAD_BYTES (or AHEAD_ITEMS members left for later) ahead of what was sent, and
// stops when the stream is destroyed (a client gone). Symlinks are archived as links, hard links
// as separate files, devices, fifos and sockets never. Headers: tar-header.ts.

import { closeSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { PrefetchHold } from './prefetch-budget.js';
import { HEADER_ROOM, memberName, padding, writeHeader, writeOtherHeader } from './tar-header.js';
import { isPackedRun, PackArena, type PackedRun } from './tar-pack-arena.js';
import { packListing } from './tar-pack-listing.js';
import { openMember, type TreeEntry, type TreeListing } from './tar-walk.js';

/** The archive in order: runs of members the packing wrote and members left for the writer. */
type TreeItem = TreeEntry | PackedRun;

const BATCH_BYTES = 1024 * 1024;
const BATCH_MEMBERS = 256;
const END_OF_ARCHIVE = 1024;
/** The packing waits while this many bytes it packed are not sent yet... */
const AHEAD_BYTES = 8 * 1024 * 1024;
/** ... or this many items (runs, members left for later). */
const AHEAD_ITEMS = 2048;

interface OpenFile {
  fd: number;
  size: number;
  pos: number;
}

/** The archive of a listed tree, packed and sent on demand: the packing's runs as they are, other members into one buffer per batch. */
export class TreeTarStream extends Readable {
  /** The archive's items as the packing adds them (each is let go once sent). */
  private readonly items: Array<TreeItem | null> = [];
  private readonly hold: PrefetchHold;
  private next = 0;
  private file: OpenFile | null = null;
  private finished = false;
  private packing: 'idle' | 'running' | 'done' = 'idle';
  private packed: Promise<void> = Promise.resolve();
  private stopped = false;
  /** `_read` found no item yet: the packing calls it again when it adds some. */
  private starved = false;
  /** The packing's wait for the send to catch up. */
  private caughtUp: (() => void) | null = null;

  constructor(
    private readonly listing: TreeListing,
    private readonly guard: PathGuard,
    /** What the packing holds is counted in: given back as it is sent, and all of it when the stream ends (the listing's hold if not given). */
    hold?: PrefetchHold,
  ) {
    super({ highWaterMark: BATCH_BYTES });
    this.hold = hold ?? listing.hold;
  }

  /** Starts the packing now (else it starts at the first read); it may start while the listing goes on. */
  pack(): void {
    if (this.packing === 'idle') this.startPacking();
  }

  /** Destroys the stream and resolves once its packing has ended and given back what it held (a refused listing). */
  async stop(): Promise<void> {
    this.destroy();
    await this.packed;
  }

  private startPacking(): void {
    this.packing = 'running';
    // the arena only appends; the stream nulls what it sent
    const arena = new PackArena<TreeEntry>(this.items as TreeItem[], this.hold);
    const pause = async () => {
      arena.flush();
      this.fed();
      // the event loop runs (the socket is written) between slices
      await yieldToLoop();
      while (!this.stopped && (this.hold.holding >= AHEAD_BYTES || this.items.length - this.next > AHEAD_ITEMS)) {
        await new Promise<void>((resolve) => (this.caughtUp = resolve));
      }
    };
    const pace = { pause, stopped: () => this.stopped, starving: () => this.starved || this.next >= this.items.length };
    this.packed = packListing(this.listing, arena, pace).then(
      () => {
        this.packing = 'done';
        if (this.stopped) this.hold.release(); // what was packed after the stream ended
        else this.fed();
      },
      (err: unknown) => {
        this.packing = 'done';
        this.hold.release();
        this.destroy(err as Error);
      },
    );
  }

  /** The packing added items (or ended): a read that found none goes on. */
  private fed(): void {
    if (!this.starved || this.stopped) return;
    this.starved = false;
    this._read();
  }

  /** Something was sent: the packing may go on. */
  private sent(): void {
    const go = this.caughtUp;
    this.caughtUp = null;
    go?.();
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
        if (this.packing !== 'done') break; // more to come
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
    if (this.finished || this.stopped) return;
    if (this.packing === 'idle') this.startPacking();
    try {
      for (;;) {
        const run = this.takeRun();
        if (run !== null) {
          this.push(run);
          if (this.next === this.items.length && this.packing === 'done') {
            this.finished = true;
            this.push(Buffer.alloc(END_OF_ARCHIVE));
          }
          break;
        }
        if (this.file === null && this.next === this.items.length && this.packing !== 'done') {
          this.starved = true; // the packing calls again when it adds items
          break;
        }
        const buf = Buffer.allocUnsafe(BATCH_BYTES + HEADER_ROOM);
        const n = this.batch(buf);
        // nothing written (members that went away, right before a run or the packing's next items): go on
        if (n === 0 && !this.finished) continue;
        this.push(buf.subarray(0, n));
        break;
      }
    } catch (err) {
      this.destroy(err as Error);
      return;
    }
    this.sent();
    if (this.finished) this.push(null);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stopped = true;
    this.sent(); // a packing waiting for the send sees it stopped
    this.hold.release();
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
