// Streams the lines of a verified file handle chunk by chunk, so a window of a huge file is served
// without loading it whole. Lines end at LF, CRLF or a lone CR (as core/text-doc splits them); a
// leading UTF-8 BOM is dropped; bytes that are not UTF-8 are escaped exactly as decodeBytes does.
// The whole-file tag is computed on the way (the tag's normalization, hashed a segment at a time), and the LF text is kept when the file is
// small enough to be recorded in the history.

import type { FileHandle } from 'node:fs/promises';
import { HashlineError } from '../core/errors.js';
import { formatTag, normalizeForTag } from '../core/tag.js';
import { decodeBytes, encodeText } from '../core/text-codec.js';
import { Xxh32 } from '../core/xxhash32.js';
import type { LineEnding } from '../core/text-doc.js';

/** Small enough that a chunk's decoded text stays out of V8's large-object space (collected late). */
export const CHUNK_BYTES = 64 * 1024;

export interface LineScan {
  /** Lines in the file (a trailing newline adds none). */
  total: number;
  /** The last line has a terminator, or the file is empty: `text.split('\n')` ends in an empty element. */
  trailingEmpty: boolean;
  /** The whole-file content tag. */
  tag: string;
  /** False when some bytes were not valid UTF-8. */
  utf8: boolean;
  bom: boolean;
  /** The first line ending, LF when there is none. */
  eol: LineEnding;
  /** The LF, BOM-less text, when the file was no larger than `keepTextUpTo` bytes. */
  text: string | undefined;
}

export interface ScanOptions {
  /** Keep the text when the file has at most this many bytes. Default 0 (never). */
  keepTextUpTo?: number;
  signal?: AbortSignal | undefined;
}

const TERMINATOR = /\r\n|\n|\r/g;

/** Reads every line of `handle` from offset 0, calling `onLine(n, content)` in order (n 1-based). */
export async function scanLines(
  handle: FileHandle,
  size: number,
  onLine: (n: number, content: string) => void,
  options: ScanOptions = {},
): Promise<LineScan> {
  const hasher = new Xxh32(0);
  const keep = size <= (options.keepTextUpTo ?? 0) ? ([] as string[]) : undefined;
  let total = 0;
  let utf8 = true;
  let bom = false;
  let eol: LineEnding | undefined;
  let lastTerminated = true;
  let pending: Buffer[] = [];
  let position = 0;
  let first = true;

  const emitSegment = (bytes: Buffer, atEof: boolean): void => {
    const decoded = decodeBytes(bytes);
    utf8 &&= decoded.utf8;
    const text = decoded.text;
    // a segment ends with a terminator (or at EOF), so the tag's per-line normalization is local
    hasher.update(encodeText(normalizeForTag(text.replace(/\r\n?/g, '\n'))));
    let start = 0;
    TERMINATOR.lastIndex = 0;
    for (let m = TERMINATOR.exec(text); m !== null; m = TERMINATOR.exec(text)) {
      const line = text.slice(start, m.index);
      eol ??= m[0] as LineEnding;
      keep?.push(line);
      onLine(++total, line);
      start = m.index + m[0].length;
      lastTerminated = true;
    }
    if (start < text.length) {
      if (!atEof) throw new HashlineError('internal', 'line reader cut a segment inside a line');
      const line = text.slice(start);
      keep?.push(line);
      onLine(++total, line);
      lastTerminated = false;
    }
  };

  for (;;) {
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, position);
    const atEof = bytesRead === 0;
    let chunk = buf.subarray(0, bytesRead);
    position += bytesRead;
    if (first && !atEof) {
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        bom = true;
        chunk = chunk.subarray(3);
      }
      first = false;
    }
    if (atEof) {
      if (pending.length > 0) emitSegment(Buffer.concat(pending), true);
      break;
    }
    // cut after the last terminator; a CR at the very end waits (it may be half of a CRLF)
    let cut = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
    if (cut === chunk.length - 1 && chunk[cut] === 0x0d) {
      const prev = Math.max(chunk.lastIndexOf(0x0a, cut - 1), chunk.lastIndexOf(0x0d, cut - 1));
      cut = prev;
    }
    if (cut < 0) {
      pending.push(chunk);
      continue;
    }
    pending.push(chunk.subarray(0, cut + 1));
    emitSegment(pending.length === 1 ? pending[0]! : Buffer.concat(pending), false);
    pending = cut + 1 < chunk.length ? [chunk.subarray(cut + 1)] : [];
  }
  const trailingEmpty = total === 0 || lastTerminated;
  let text: string | undefined;
  if (keep) text = keep.join('\n') + (total > 0 && lastTerminated ? '\n' : '');
  return { total, trailingEmpty, tag: formatTag(hasher.digest()), utf8, bom, eol: eol ?? '\n', text };
}
