// Splits the bytes of a file into lines as they stream in, so a window of a huge file is served
// without loading it whole. Lines end at LF, CRLF or a lone CR (as core/text-doc splits them); a
// leading UTF-8 BOM is dropped; bytes that are not UTF-8 are escaped exactly as decodeBytes does.
// The whole-file tag is computed on the way (the tag's normalization, hashed a segment at a time,
// which equals hashing line by line), and the LF text is kept when the file is small enough to be
// recorded in the history.

import type { FileHandle } from 'node:fs/promises';
import { HashlineError } from '../../core/errors/errors.js';
import { lastCut } from '../../core/text/byte-tag.js';
import { blankEndsLine, formatTag, normalizeForTag } from '../../core/text/tag.js';
import { decodeBytes, encodeText } from '../../core/text/text-codec.js';
import type { LineEnding } from '../../core/text/text-doc.js';
import { Xxh32 } from '../../core/text/xxhash32.js';

/** Small enough that a chunk's decoded text stays out of V8's large-object space (collected late). */
export const CHUNK_BYTES = 64 * 1024;
/** Files below this size are read with one call. */
const SMALL_FILE_BYTES = 1024 * 1024;

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
  /** Valid UTF-8 with no BOM and no CR: the bytes are exactly the UTF-8 of the LF text. */
  plain: boolean;
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

/** A blank or tab before a newline or at the end: the tag's normalization has work to do. */
function hasTrailingBlank(lf: string): boolean {
  const last = lf.charCodeAt(lf.length - 1);
  return last === 0x20 || last === 0x09 || blankEndsLine(lf);
}

/** Feeds chunks in order; calls `onLine(n, content)` for each complete line. */
export class LineSplitter {
  private readonly hasher = new Xxh32(0);
  private readonly keep: string[] | undefined;
  private total = 0;
  private utf8 = true;
  private bom = false;
  private sawCr = false;
  private eol: LineEnding | undefined;
  private lastTerminated = true;
  private pending: Buffer[] = [];
  private first = true;

  constructor(
    private readonly onLine: (n: number, content: string) => void,
    keepText: boolean,
  ) {
    this.keep = keepText ? [] : undefined;
  }

  private emit(bytes: Buffer, atEof: boolean): void {
    const decoded = decodeBytes(bytes);
    this.utf8 &&= decoded.utf8;
    const text = decoded.text;
    if (bytes.indexOf(0x0d) < 0) {
      this.keep?.push(text);
      const blank = this.splitLf(text, atEof);
      // a segment ends with a terminator (or at EOF), so the tag's per-line normalization is local;
      // valid UTF-8 with nothing to normalize is hashed as it came (its text encodes to the same bytes)
      this.hasher.update(decoded.utf8 && !blank ? bytes : encodeText(blank ? normalizeForTag(text) : text));
      return;
    }
    this.sawCr = true;
    const lf = text.replace(/\r\n?/g, '\n');
    this.keep?.push(lf);
    this.hasher.update(encodeText(hasTrailingBlank(lf) ? normalizeForTag(lf) : lf));
    let start = 0;
    TERMINATOR.lastIndex = 0;
    for (let m = TERMINATOR.exec(text); m !== null; m = TERMINATOR.exec(text)) {
      const line = text.slice(start, m.index);
      this.eol ??= m[0] as LineEnding;
      this.onLine(++this.total, line);
      start = m.index + m[0].length;
      this.lastTerminated = true;
    }
    if (start < text.length) {
      if (!atEof) throw new HashlineError('internal', 'line reader cut a segment inside a line');
      const line = text.slice(start);
      this.onLine(++this.total, line);
      this.lastTerminated = false;
    }
  }

  /**
   * The line loop for text that holds no CR (plain searches for LF). Returns whether some line ends
   * in a blank or tab (the tag's normalization has work to do).
   */
  private splitLf(text: string, atEof: boolean): boolean {
    let blank = false;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const last = text.charCodeAt(nl - 1);
      blank ||= nl > start && (last === 0x20 || last === 0x09);
      this.eol ??= '\n';
      this.onLine(++this.total, text.slice(start, nl));
      start = nl + 1;
      this.lastTerminated = true;
    }
    if (start < text.length) {
      if (!atEof) throw new HashlineError('internal', 'line reader cut a segment inside a line');
      const last = text.charCodeAt(text.length - 1);
      blank ||= last === 0x20 || last === 0x09;
      this.onLine(++this.total, text.slice(start));
      this.lastTerminated = false;
    }
    return blank;
  }

  push(input: Buffer): void {
    let chunk = input;
    if (this.first && chunk.length > 0) {
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        this.bom = true;
        chunk = chunk.subarray(3);
      }
      this.first = false;
    }
    // cut after the last terminator; a CR at the very end waits (it may be half of a CRLF)
    const cut = lastCut(chunk);
    if (cut < 0) {
      this.pending.push(chunk);
      return;
    }
    this.pending.push(chunk.subarray(0, cut + 1));
    this.emit(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending), false);
    this.pending = cut + 1 < chunk.length ? [chunk.subarray(cut + 1)] : [];
  }

  end(): LineScan {
    if (this.pending.length > 0) this.emit(Buffer.concat(this.pending), true);
    this.pending = [];
    const total = this.total;
    // pieces put end to end (a rope), not joined: a text over 128 KiB would be one large object
    // on fresh pages; whoever needs it flat (a parse, an edit) flattens it once
    let text: string | undefined;
    if (this.keep) {
      text = '';
      for (const piece of this.keep) text += piece;
    }
    return {
      total,
      trailingEmpty: total === 0 || this.lastTerminated,
      tag: formatTag(this.hasher.digest()),
      utf8: this.utf8,
      bom: this.bom,
      plain: this.utf8 && !this.bom && !this.sawCr,
      eol: this.eol ?? '\n',
      text,
    };
  }
}

/** Bytes in memory are split in pieces of this size, so each decoded piece stays a small object. */
const MEMORY_PIECE_BYTES = 32 * 1024;

/** Splits bytes already in memory. */
export function scanBytes(bytes: Buffer, onLine: (n: number, content: string) => void, options: ScanOptions = {}): LineScan {
  const s = new LineSplitter(onLine, bytes.length <= (options.keepTextUpTo ?? 0));
  for (let at = 0; at < bytes.length; at += MEMORY_PIECE_BYTES) s.push(bytes.subarray(at, Math.min(bytes.length, at + MEMORY_PIECE_BYTES)));
  return s.end();
}

/** Reads every line of `handle` from offset 0, calling `onLine(n, content)` in order (n 1-based). */
export async function scanLines(
  handle: FileHandle,
  size: number,
  onLine: (n: number, content: string) => void,
  options: ScanOptions = {},
): Promise<LineScan> {
  const s = new LineSplitter(onLine, size <= (options.keepTextUpTo ?? 0));
  const chunkBytes = size < SMALL_FILE_BYTES ? size + 1 : CHUNK_BYTES;
  let position = 0;
  for (;;) {
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    const buf = Buffer.allocUnsafe(chunkBytes);
    const { bytesRead } = await handle.read(buf, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    s.push(buf.subarray(0, bytesRead));
  }
  return s.end();
}
