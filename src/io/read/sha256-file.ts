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
    return await sha256OfHandle(vh.handle, signal, vh.size);
  } finally {
    await vh.handle.close();
  }
}

/**
 * The SHA-256 of everything an open file holds, read from its start. `sizeHint` (the size fstat
 * gave) sizes the buffers: a small file gets small ones (it is read to its end whatever the hint).
 */
export async function sha256OfHandle(handle: FileHandle, signal?: AbortSignal, sizeHint = CHUNK): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  const bufBytes = Math.min(CHUNK, Math.max(sizeHint + 1, 4096));
  const buffers = [Buffer.allocUnsafe(bufBytes), Buffer.allocUnsafe(bufBytes)];
  let size = 0;
  let which = 0;
  let pending = handle.read(buffers[0]!, 0, bufBytes, 0);
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
    pending = handle.read(buffers[which]!, 0, bufBytes, size);
    hash.update(current.subarray(0, bytesRead));
  }
  return { sha256: hash.digest('hex'), size };
}
