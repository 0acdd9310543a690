// A window of lines of a file, read exactly (bytes as they are: line endings, BOM), while the
// whole file streams through SHA-256 (on its own thread for a large file: io/read/hashed-chunks.ts):
// memory stays flat whatever the file's size (a few chunk buffers plus the window). Lines are zero-based here and end after their `\n` (a last line
// without one is a line); the window is [start, end). Its content stops at `maxBytes`, cut at the
// last whole line when one fits, else at a character boundary.

import { HashlineError } from '../../core/errors/errors.js';
import type { Scope } from '../../core/config/path-policy.js';
import { openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { ByteTagger } from '../../core/text/byte-tag.js';
import { HashedChunks } from './hashed-chunks.js';

const CHUNK = 1024 * 1024;

export interface ByteWindow {
  sha256: string;
  /** The 4-hex tag of the whole file, from the same read (asked for with `tag: true`). */
  tag?: string;
  size: number;
  /** Lines in the file. */
  totalLines: number;
  content: Buffer;
  /** Lines of the window present in `content` (the last may be cut when `truncated`). */
  returned: number;
  /** The content stopped at maxBytes before the window's end. */
  truncated: boolean;
  /** The file goes on after what `content` holds. */
  hasMore: boolean;
  /** The first 8 KiB hold a NUL byte. */
  binary: boolean;
  /** Bytes of the window's first line left out (`skip`, moved on to a character boundary). */
  skipped: number;
}

/** Drops the bytes of a UTF-8 sequence cut at the end of `b`. */
export function trimToCharBoundary(b: Buffer): Buffer {
  let end = b.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 4 && (b[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = end - back - 1;
  if (lead < 0) return b.subarray(0, Math.max(0, end - back));
  const first = b[lead]!;
  const need = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  if (need > back + 1) end = lead;
  return b.subarray(0, end);
}

export async function readByteWindow(
  guard: PathGuard,
  rp: ResolvedPath,
  window: { start: number; end: number; maxBytes: number; skip?: number },
  options: { scope?: Scope; signal?: AbortSignal | undefined; tag?: boolean } = {},
): Promise<ByteWindow> {
  const vh = await openVerified(guard, rp, options.scope ?? 'read');
  let chunks: HashedChunks | undefined;
  try {
    // the tag from the bytes, decoding only lines its normalization changes (core/text/byte-tag.ts)
    const tagger = options.tag ? new ByteTagger() : undefined;
    // buffers no larger than the file (plus one byte to see its end), up to CHUNK; the SHA-256 of a
    // large file runs on its own thread while this one scans and tags the same bytes
    chunks = new HashedChunks(vh.handle, Math.min(CHUNK, Math.max(vh.size + 1, 4096)), vh.size);
    const parts: Buffer[] = [];
    let kept = 0;
    let line = 0;
    let newlines = 0;
    let size = 0;
    let lastByte = -1;
    let truncated = false;
    let returned = 0;
    let counted = -1;
    let binary = false;
    let skipLeft = window.skip ?? 0;
    let skipped = 0;
    // after a skip, continuation bytes of a character it cut are left out too
    let aligning = skipLeft > 0;
    let emptyFirst = false;
    for (;;) {
      const chunk = await chunks.next(options.signal);
      if (chunk === null) break;
      const bytesRead = chunk.length;
      if (size === 0) binary = chunk.subarray(0, 8192).includes(0);
      size += bytesRead;
      tagger?.push(chunk);
      lastByte = chunk[bytesRead - 1]!;
      let pos = 0;
      while (pos < bytesRead) {
        // lines outside the window are only counted: a tight pass from newline to newline
        if (line < window.start) {
          let at = chunk.indexOf(10, pos);
          for (; at >= 0; at = chunk.indexOf(10, pos)) {
            newlines++;
            line++;
            pos = at + 1;
            if (line === window.start) break;
          }
          if (at < 0) break;
          continue;
        }
        if (line >= window.end || truncated) {
          let n = 0;
          for (let at = chunk.indexOf(10, pos); at >= 0; at = chunk.indexOf(10, at + 1)) n++;
          newlines += n;
          line += n;
          break;
        }
        const nl = chunk.indexOf(10, pos);
        const segEnd = nl < 0 ? bytesRead : nl + 1;
        if (line >= window.start && line < window.end && !truncated) {
          const room = window.maxBytes - kept;
          let seg = chunk.subarray(pos, segEnd);
          if (line === window.start && (skipLeft > 0 || aligning)) {
            let drop = Math.min(skipLeft, seg.length);
            skipLeft -= drop;
            if (skipLeft === 0) {
              while (drop < seg.length && (seg[drop]! & 0xc0) === 0x80) drop++;
              if (drop < seg.length) aligning = false;
            }
            skipped += drop;
            seg = seg.subarray(drop);
            // the rest of the first line was empty: it counts as returned (its end was reached)
            if (seg.length === 0 && nl >= 0) {
              returned++;
              counted = line;
              emptyFirst = true;
            }
          }
          const take = Math.min(room, seg.length);
          if (take < seg.length) truncated = true;
          if (take > 0) {
            parts.push(Buffer.from(seg.subarray(0, take)));
            kept += take;
            if (line !== counted) {
              returned++;
              counted = line;
            }
          }
        }
        if (nl < 0) break;
        newlines++;
        line++;
        pos = segEnd;
      }
    }
    const totalLines = newlines + (size > 0 && lastByte !== 10 ? 1 : 0);
    let content: Buffer = Buffer.concat(parts, kept);
    if (truncated) {
      // prefer the last whole line; else cut the one line at a character boundary
      const nl = content.lastIndexOf(10);
      content = nl >= 0 ? content.subarray(0, nl + 1) : trimToCharBoundary(content);
      returned = lineCount(content) + (emptyFirst ? 1 : 0);
    }
    const hasMore = truncated || window.start + returned < totalLines;
    const sha256 = await chunks.digest();
    return { sha256, ...(tagger ? { tag: tagger.end() } : {}), size, totalLines, content, returned, truncated, hasMore, binary, skipped };
  } catch (e) {
    chunks?.dispose();
    throw e;
  } finally {
    await vh.handle.close();
  }
}

/** Lines in `b` (a last line without `\n` counts). */
export function lineCount(b: Buffer): number {
  return countNewlines(b) + (b.length > 0 && b[b.length - 1] !== 10 ? 1 : 0);
}

/** At most `limit` bytes of `b`: up to its last whole line when one fits, else up to a character boundary. */
export function cutBytes(b: Buffer, limit: number): Buffer {
  if (b.length <= limit) return b;
  const head = b.subarray(0, limit);
  const nl = head.lastIndexOf(10);
  return nl >= 0 ? head.subarray(0, nl + 1) : trimToCharBoundary(head);
}

function countNewlines(b: Buffer): number {
  let n = 0;
  for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
  return n;
}
