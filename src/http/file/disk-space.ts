// Free-space reserve of writes: a write that would leave the target file system below the
// configured reserve is refused with 507. Checked up front against the bytes the write will bring
// (a declared Content-Length, the archive's member total from the tar pre-scan), then again while
// the bytes arrive against what is still to come, and once more when they have all landed.

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../../core/errors/errors.js';
import { diskFull, diskReserve } from '../../core/messages/http.js';

/** How many bytes may arrive between two checks of free space while a write streams. */
export const DISK_RECHECK_BYTES = 1024 * 1024;

/** Bytes available to this user on the file system holding `p` (or its nearest existing parent). */
export async function availableBytes(p: string): Promise<number> {
  for (let d = p; ; d = path.dirname(d)) {
    try {
      const s = await fsp.statfs(d);
      return s.bavail * s.bsize;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || d === '/') throw e;
    }
  }
}

function refusal(display: string, avail: number, reserve: number, incoming: number, cause?: unknown): HashlineError {
  return new HashlineError('insufficient_storage', diskReserve(display, avail, reserve, incoming), {
    details: { available: avail, reserve, incoming },
    retryable: true,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Throws `insufficient_storage` (507) when fewer than `reserve` bytes would be left at `p` once
 * `incoming` more bytes land there.
 */
export async function assertDiskReserve(p: string, display: string, reserve: number, incoming = 0): Promise<void> {
  if (reserve <= 0 && incoming <= 0) return;
  const avail = await availableBytes(p);
  if (avail - incoming < reserve) throw refusal(display, avail, reserve, incoming);
}

/** The 507 for a write the file system refused with ENOSPC/EDQUOT: the real free space and reserve. */
export async function noSpaceError(p: string, display: string, reserve: number, cause: unknown): Promise<HashlineError> {
  const avail = await availableBytes(p).catch(() => 0);
  if (avail < reserve) return refusal(display, avail, reserve, 0, cause);
  return new HashlineError('insufficient_storage', diskFull(display, avail, reserve), { details: { available: avail, reserve }, retryable: true, cause });
}

/**
 * Watches the free space while `expected` bytes (undefined: unknown) stream to the file system of
 * `dir`, in one stream or many (the members of an archive): whenever DISK_RECHECK_BYTES have
 * arrived since the last check, free space less what is still to come must stay at or above the
 * reserve. With no declared total, each stream is checked again once it has landed.
 */
export class ReserveWatch {
  private received = 0;
  private checkedAt = 0;

  constructor(
    private readonly dir: string,
    private readonly display: string,
    private readonly reserve: number,
    private readonly expected: number | undefined,
  ) {}

  /** Bytes still to come, by the declared total. */
  get remaining(): number {
    return this.expected === undefined ? 0 : Math.max(0, this.expected - this.received);
  }

  /** Checks now: free space less what is still to come. */
  check(): Promise<void> {
    this.checkedAt = this.received;
    return assertDiskReserve(this.dir, this.display, this.reserve, this.remaining);
  }

  /** Before a member of `size` bytes: a check when it is large, or enough arrived since the last one. */
  async member(size: number): Promise<void> {
    if (size >= DISK_RECHECK_BYTES || this.received - this.checkedAt >= DISK_RECHECK_BYTES) await this.check();
  }

  /**
   * Counts `size` bytes about to arrive at once (an archive member read into memory), with a check
   * first when they cross the next recheck mark: `through` for one chunk of `size` bytes.
   */
  async arriving(size: number): Promise<void> {
    if (this.received + size - this.checkedAt >= DISK_RECHECK_BYTES) await this.check();
    this.received += size;
    if (this.expected === undefined) await this.check();
  }

  /** Passes `chunks` through, counting them, with a check before each chunk that crosses the next recheck mark. */
  async *through(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      if (this.received + chunk.length - this.checkedAt >= DISK_RECHECK_BYTES) await this.check();
      this.received += chunk.length;
      yield chunk;
    }
    if (this.expected === undefined) await this.check();
  }
}

/** True when an errno means the disk filled up. */
export function isNoSpace(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
