// Where the walk of GET /v1/fs/tar writes the archive as it goes: members whose bytes (header,
// content, padding) it could hold within the request's read-ahead hold are written one after the
// other into 1 MiB chunks, and each stretch of them becomes one run the writer sends as it is (no
// copy, no Buffer per file); a member left for later (its content over the hold, or a file that
// changed while it was read) ends the run and goes into the list as its entry, in archive order.

import type { PrefetchHold } from './prefetch-budget.js';

/** Consecutive members of the archive, written by the walk; `held` of its bytes are counted in the hold. */
export interface PackedRun {
  readonly bytes: Buffer;
  readonly held: number;
}

const CHUNK_BYTES = 1024 * 1024;

export class PackArena<E extends object> {
  private chunk: Buffer = Buffer.allocUnsafe(0);
  private end = 0;
  private runStart = 0;
  private runHeld = 0;

  constructor(
    /** The archive's items in order: runs and members left for later. */
    readonly out: Array<E | PackedRun>,
    private readonly hold: PrefetchHold,
  ) {}

  /** The chunk to write the next member into, with at least `room` bytes free from `at`. */
  room(room: number): Buffer {
    if (this.chunk.length - this.end < room) {
      this.flush();
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      this.end = 0;
      this.runStart = 0;
    }
    return this.chunk;
  }

  /** Where the next member goes in the chunk `room` returned. */
  get at(): number {
    return this.end;
  }

  /**
   * Keeps the member written at `at` up to `end` when the hold takes its bytes (true); otherwise
   * it is dropped (false) and the caller adds the member as an entry instead.
   */
  keep(end: number): boolean {
    const n = end - this.end;
    if (!this.hold.take(n)) return false;
    this.end = end;
    this.runHeld += n;
    return true;
  }

  /** Gives back the member just kept from `start` (its content could not be read whole). */
  drop(start: number): void {
    const n = this.end - start;
    this.hold.give(n);
    this.runHeld -= n;
    this.end = start;
  }

  /** Adds a member left for later, after everything packed so far. */
  add(entry: E): void {
    this.flush();
    this.out.push(entry);
  }

  /** Closes the current run (called before a member left for later, and at the end of the walk). */
  flush(): void {
    if (this.end > this.runStart) this.out.push({ bytes: this.chunk.subarray(this.runStart, this.end), held: this.runHeld });
    this.runStart = this.end;
    this.runHeld = 0;
  }
}

export function isPackedRun(item: object): item is PackedRun {
  return 'bytes' in item;
}
