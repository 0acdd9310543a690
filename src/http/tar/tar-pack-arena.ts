// Where the walk of GET /v1/fs/tar puts the archive as it goes: members whose bytes (header,
// content, padding) it could hold within the request's read-ahead hold, written one after the other
// into 1 MiB chunks or into a packed slice's buffer (tar-pack-files.ts), and each stretch of them
// becomes one run the writer sends as it is (no copy, no Buffer per file); a member left for later
// (its content over the hold, or a file that changed while it was read) ends the run and goes into
// the list as its entry, in archive order.

import type { PrefetchHold } from './prefetch-budget.js';

/** Consecutive members of the archive, written by the walk; `held` of its bytes are counted in the hold. */
export interface PackedRun {
  readonly bytes: Buffer;
  readonly held: number;
}

const CHUNK_BYTES = 1024 * 1024;

export class PackArena<E extends object> {
  private chunk: Buffer = Buffer.allocUnsafe(0);
  private chunkEnd = 0;
  /** The run being built: `runBuf` from `runStart` to `runEnd` (the arena's own chunk, or a slice's buffer). */
  private runBuf: Buffer | null = null;
  private runStart = 0;
  private runEnd = 0;
  private runHeld = 0;

  constructor(
    /** The archive's items in order: runs and members left for later. */
    readonly out: Array<E | PackedRun>,
    private readonly hold: PrefetchHold,
  ) {}

  /** The chunk to write the next member into, with at least `room` bytes free from `at`. */
  room(room: number): Buffer {
    if (this.chunk.length - this.chunkEnd < room) {
      this.flush();
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      this.chunkEnd = 0;
    }
    return this.chunk;
  }

  /** Where the next member goes in the chunk `room` returned. */
  get at(): number {
    return this.chunkEnd;
  }

  /**
   * Keeps the member written at `at` up to `end` when the hold takes its bytes (true); otherwise
   * it is dropped (false) and the caller adds the member as an entry instead.
   */
  keep(end: number): boolean {
    if (!this.adopt(this.chunk, this.chunkEnd, end)) return false;
    this.chunkEnd = end;
    return true;
  }

  /**
   * Keeps a member already written elsewhere (`bytes` from `start` to `end`: a packed slice,
   * tar-pack-files.ts) when the hold takes its bytes; false otherwise (the caller adds it as an entry).
   */
  adopt(bytes: Buffer, start: number, end: number): boolean {
    const n = end - start;
    if (!this.hold.take(n)) return false;
    if (this.runBuf !== bytes || this.runEnd !== start) {
      this.flush();
      this.runBuf = bytes;
      this.runStart = start;
    }
    this.runEnd = end;
    this.runHeld += n;
    return true;
  }

  /** Adds a member left for later, after everything packed so far. */
  add(entry: E): void {
    this.flush();
    this.out.push(entry);
  }

  /** Closes the current run (called before a member left for later, and at the end of the walk). */
  flush(): void {
    if (this.runBuf !== null && this.runEnd > this.runStart) this.out.push({ bytes: this.runBuf.subarray(this.runStart, this.runEnd), held: this.runHeld });
    this.runBuf = null;
    this.runHeld = 0;
  }
}

export function isPackedRun(item: object): item is PackedRun {
  return 'bytes' in item;
}
