// One file's two names, from one verified read of its bytes: the hashline family's 4-hex tag (of
// its LF, BOM-less text, as io/read/line-reader.ts computes it) and the boundary family's SHA-256
// (of the bytes themselves). Each family's structured replies carry the other's name, so an agent
// that switches family never needs an extra hashing call (tools/file-identity-fields.ts).

import { createHash } from 'node:crypto';
import { HashlineError } from '../../core/errors/errors.js';
import { openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { CHUNK_BYTES, LineSplitter } from './line-reader.js';

/** The largest read of one file (a file this size or smaller is read at once). */
const IDENTITY_CHUNK = 1024 * 1024;

export interface FileIdentity {
  /** The 4-hex tag of the file's text (what `¶path#TAG` shows). */
  readonly tag: string;
  /** The SHA-256 of the file's bytes, 64 lowercase hex digits (what file_hash returns). */
  readonly sha256: string;
  readonly size: number;
}

/** The tag and SHA-256 of the file `rp` names, streamed (constant memory whatever the size). */
export async function fileIdentity(guard: PathGuard, rp: ResolvedPath, signal?: AbortSignal): Promise<FileIdentity> {
  const vh = await openVerified(guard, rp, 'read');
  try {
    const hash = createHash('sha256');
    const lines = new LineSplitter(() => undefined, false);
    // one buffer no larger than the file (plus one byte to see its end), up to IDENTITY_CHUNK
    const bufBytes = Math.min(IDENTITY_CHUNK, Math.max(vh.size + 1, CHUNK_BYTES));
    // the splitter may keep a partial line past a chunk: each read fills a buffer of its own
    let buf = Buffer.allocUnsafe(bufBytes);
    let size = 0;
    for (;;) {
      if (signal?.aborted) throw new HashlineError('aborted', 'aborted');
      const { bytesRead } = await vh.handle.read(buf, 0, buf.length, size);
      if (bytesRead === 0) break;
      size += bytesRead;
      const chunk = buf.subarray(0, bytesRead);
      hash.update(chunk);
      lines.push(chunk);
      // after a short read (the end, as a rule) a small buffer to see the end; else a full one
      buf = Buffer.allocUnsafe(bytesRead < buf.length ? Math.min(4096, bufBytes) : bufBytes);
    }
    return { tag: lines.end().tag, sha256: hash.digest('hex'), size };
  } finally {
    await vh.handle.close();
  }
}

/** The 4-hex tag of bytes in memory (what line-reader.ts gives for the same bytes on disk). */
export function tagOfBytes(bytes: Uint8Array): string {
  const lines = new LineSplitter(() => undefined, false);
  lines.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return lines.end().tag;
}

/** The tag and SHA-256 of bytes in memory. */
export function identityOfBytes(bytes: Buffer): FileIdentity {
  return { tag: tagOfBytes(bytes), sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
