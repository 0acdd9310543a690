// Free-space preflight of writes: a write that would leave the target file system below the
// configured reserve is refused with 507 before (and while) anything is written.

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../core/errors.js';
import { diskReserve } from '../core/messages/http.js';

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

/** Throws `insufficient_storage` (507) when fewer than `reserve` bytes are available at `p`. */
export async function assertDiskReserve(p: string, display: string, reserve: number): Promise<void> {
  if (reserve <= 0) return;
  const avail = await availableBytes(p);
  if (avail < reserve) {
    throw new HashlineError('insufficient_storage', diskReserve(display, avail, reserve), {
      details: { available: avail, reserve },
      retryable: true,
    });
  }
}

/** True when an errno means the disk filled up. */
export function isNoSpace(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
