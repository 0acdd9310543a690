// An open file read from its start in chunks, each chunk's bytes fed to SHA-256 as it is handed
// to the caller: on the SHA-256 thread (io/read/sha256-thread.ts) for a large file, so the caller's
// own pass over the chunk (the tag, the line scan) runs on another core meanwhile; on the calling
// thread for a small one (a round trip to the thread costs more than hashing a few KiB), when no
// core is to spare, or when the thread is not usable. The digest is of exactly the bytes handed
// out: one read, nothing read twice. The next chunks are read ahead (in the thread pool) while
// the caller works on the current one; a buffer is filled again only once the caller moved on and
// the thread is done with it.

import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { HashlineError } from '../../core/errors/errors.js';
import { giveShared, Sha256Job, sha256ThreadIfSpare, takeShared, type Sha256Thread } from './sha256-thread.js';

/** Files from this size on are hashed on the SHA-256 thread. */
export const THREAD_HASH_MIN_BYTES = 256 * 1024;
/** Buffers in turn on the thread: the one the caller holds, the one being read, one being hashed. */
const RING = 3;

type ReadResult = { bytesRead: number };

export class HashedChunks {
  private readonly buffers: Buffer[];
  private readonly job: Sha256Job | undefined;
  private readonly hash: Hash | undefined;
  /** Per buffer, the thread's answer that it has hashed what it was last handed. */
  private readonly hashed: Array<Promise<unknown>>;
  private which = 0;
  private size = 0;
  private pending: Promise<ReadResult>;

  /**
   * `bufBytes`: the size of each chunk buffer (hashed here; 1 MiB on the thread); `sizeHint`: the
   * file's size as fstat gave it; `thread`: where to hash (by default the thread, for a large file
   * while a core is to spare).
   */
  constructor(
    private readonly handle: FileHandle,
    bufBytes: number,
    sizeHint: number,
    thread: Sha256Thread | undefined = sizeHint >= THREAD_HASH_MIN_BYTES ? sha256ThreadIfSpare() : undefined,
  ) {
    const shared = thread === undefined ? [] : takeRing();
    if (thread !== undefined && shared.length > 0) {
      this.job = new Sha256Job(thread);
      this.buffers = shared;
    } else {
      this.hash = createHash('sha256');
      this.buffers = [Buffer.allocUnsafe(bufBytes), Buffer.allocUnsafe(bufBytes)];
    }
    this.hashed = this.buffers.map(() => Promise.resolve());
    this.pending = handle.read(this.buffers[0]!, 0, this.buffers[0]!.length, 0);
  }

  /** Bytes handed out so far. */
  get bytesRead(): number {
    return this.size;
  }

  /**
   * The next chunk (a view valid until the following call), or null at the end of the file. Its
   * bytes are in the digest already (or on their way to it).
   */
  async next(signal?: AbortSignal): Promise<Buffer | null> {
    if (signal?.aborted) {
      this.pending.catch(() => undefined);
      throw new HashlineError('aborted', 'aborted');
    }
    const { bytesRead } = await this.pending;
    if (bytesRead === 0) return null;
    const i = this.which;
    const buf = this.buffers[i]!;
    const chunk = buf.subarray(0, bytesRead);
    this.size += bytesRead;
    if (this.job !== undefined) this.hashed[i] = this.job.update(chunk);
    else this.hash!.update(chunk);
    // the next buffer is filled once the thread is done with it (the read waits, not the caller)
    const n = (i + 1) % this.buffers.length;
    this.which = n;
    const at = this.size;
    const next = this.buffers[n]!;
    this.pending = this.hashed[n]!.then(() => this.handle.read(next, 0, next.length, at));
    return chunk;
  }

  /** The SHA-256 (64 lowercase hex digits) of every byte handed out, once `next` gave null. */
  async digest(): Promise<string> {
    if (this.job === undefined) return this.hash!.digest('hex');
    const hex = await this.job.end();
    // the thread answered every update before the end, and no read is under way: the buffers are free
    for (const b of this.buffers) giveShared(b);
    return hex;
  }

  /** Lets go after an error or a cancellation (the buffers are given back once a read or hash still under way is done). */
  dispose(): void {
    this.pending.catch(() => undefined);
    if (this.job === undefined) return;
    this.job.drop();
    void Promise.allSettled([this.pending, ...this.hashed]).then(() => {
      for (const b of this.buffers) giveShared(b);
    });
  }
}

/** RING buffers of the shared arena, or none when they are not all free (then this read hashes on its own thread). */
function takeRing(): Buffer[] {
  const ring: Buffer[] = [];
  for (let i = 0; i < RING; i++) {
    const b = takeShared();
    if (b === undefined) {
      for (const t of ring) giveShared(t);
      return [];
    }
    ring.push(b);
  }
  return ring;
}
