// Streaming SHA-256 of a verified open file: constant memory whatever the size.

import { createHash } from 'node:crypto';
import { HashlineError } from '../core/errors.js';
import { openVerified } from './open-verified.js';
import type { PathGuard, ResolvedPath } from './path-guard.js';

const CHUNK = 1024 * 1024;

export async function sha256File(
  guard: PathGuard,
  rp: ResolvedPath,
  signal?: AbortSignal,
): Promise<{ sha256: string; size: number }> {
  const vh = await openVerified(guard, rp, 'read');
  try {
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (;;) {
      if (signal?.aborted) throw new HashlineError('aborted', 'aborted');
      const { bytesRead } = await vh.handle.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { sha256: hash.digest('hex'), size };
  } finally {
    await vh.handle.close();
  }
}
