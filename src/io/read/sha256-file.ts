// Streaming SHA-256 of a verified open file: constant memory whatever the size. Two buffers
// alternate, so the next chunk is read (in the thread pool) while this one is hashed.

import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { HashlineError } from '../../core/errors/errors.js';
import { openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

const CHUNK = 2 * 1024 * 1024;

export async function sha256File(
  guard: PathGuard,
  rp: ResolvedPath,
  signal?: AbortSignal,
): Promise<{ sha256: string; size: number }> {
  const vh = await openVerified(guard, rp, 'read');
  try {
    return await sha256OfHandle(vh.handle, signal);
  } finally {
    await vh.handle.close();
  }
}

/** The SHA-256 of everything an open file holds, read from its start. */
export async function sha256OfHandle(handle: FileHandle, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)];
  let size = 0;
  let which = 0;
  let pending = handle.read(buffers[0]!, 0, CHUNK, 0);
  for (;;) {
    if (signal?.aborted) {
      pending.catch(() => undefined);
      throw new HashlineError('aborted', 'aborted');
    }
    const { bytesRead } = await pending;
    if (bytesRead === 0) break;
    const current = buffers[which]!;
    size += bytesRead;
    which ^= 1;
    pending = handle.read(buffers[which]!, 0, CHUNK, size);
    hash.update(current.subarray(0, bytesRead));
  }
  return { sha256: hash.digest('hex'), size };
}
