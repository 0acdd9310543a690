// The tag of a file's bytes (what io/read/line-reader.ts computes while it splits lines), for a
// caller that wants the tag alone: no line is decoded unless the tag's normalization has work to
// do. The bytes are cut after the last line ending of each chunk; a segment that holds no CR and
// no blank or tab before a newline or at its end is the encoding of its own normalized LF text
// (text-codec.ts round-trips every byte), so it is hashed as it came (native searches, no
// decode); any other segment is decoded, made LF and normalized, exactly as the line reader does.
// A leading BOM is dropped.

import { formatTag, normalizeForTag } from './tag.js';
import { decodeBytes, encodeText } from './text-codec.js';
import { Xxh32, xxhash32 } from './xxhash32.js';

const BLANK_NL = Buffer.from(' \n');
const TAB_NL = Buffer.from('\t\n');

/** Below this size one pass in JavaScript beats the native searches (each costs about a microsecond to set up). */
const SMALL_SEGMENT = 4096;

/**
 * True when the segment's bytes are those of its normalized LF text (see the header): no CR, and
 * no blank or tab before a newline or at the end. Bytes that are not UTF-8 need no check: they
 * decode to escapes that encode back to the very same bytes.
 */
export function hashesAsItCame(seg: Uint8Array): boolean {
  const n = seg.length;
  if (n < SMALL_SEGMENT) {
    let prev = 0x0a;
    for (let i = 0; i < n; i++) {
      const c = seg[i]!;
      if (c === 0x0d || (c === 0x0a && (prev === 0x20 || prev === 0x09))) return false;
      prev = c;
    }
    return prev !== 0x20 && prev !== 0x09;
  }
  const b = Buffer.from(seg.buffer, seg.byteOffset, n);
  const last = b[n - 1];
  // the two-byte searches run backwards: they then look for the newline first, not for the blank
  // that starts most words of a text (14 us against 128 us for 2,000 lines of code)
  return last !== 0x20 && last !== 0x09 && b.indexOf(0x0d) < 0 && b.lastIndexOf(BLANK_NL) < 0 && b.lastIndexOf(TAB_NL) < 0;
}

/** The bytes the tag hashes for a segment that ends with a line ending or at the end of the file. */
function normalizedBytes(seg: Buffer): Uint8Array {
  const { text } = decodeBytes(seg);
  const lf = seg.indexOf(0x0d) < 0 ? text : text.replace(/\r\n?/g, '\n');
  return encodeText(normalizeForTag(lf));
}

/** Where a chunk may be cut: after its last line ending, but never right after a CR at its very end (half of a CRLF, maybe). */
export function lastCut(chunk: Buffer): number {
  let cut = Math.max(chunk.lastIndexOf(0x0a), chunk.lastIndexOf(0x0d));
  if (cut >= 0 && cut === chunk.length - 1 && chunk[cut] === 0x0d) {
    cut = cut === 0 ? -1 : Math.max(chunk.lastIndexOf(0x0a, cut - 1), chunk.lastIndexOf(0x0d, cut - 1));
  }
  return cut;
}

/**
 * The tag of bytes fed in order (`push` any number of chunks, then `end` once). A chunk's buffer
 * may be filled again once `push` returns: the tagger copies the part it keeps.
 */
export class ByteTagger {
  private readonly hasher = new Xxh32(0);
  private pending: Buffer[] = [];
  private first = true;

  private emit(seg: Buffer): void {
    if (seg.length === 0) return;
    this.hasher.update(hashesAsItCame(seg) ? seg : normalizedBytes(seg));
  }

  push(input: Buffer): void {
    let chunk = input;
    if (this.first) {
      // a BOM is dropped once its three bytes are in (they may come in more than one chunk)
      if (this.pending.length > 0) chunk = Buffer.concat([...this.pending, chunk]);
      this.pending = [];
      if (chunk.length < 3) {
        if (chunk.length > 0) this.pending.push(Buffer.from(chunk));
        return;
      }
      this.first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    const cut = lastCut(chunk);
    if (cut < 0) {
      this.pending.push(Buffer.from(chunk));
      return;
    }
    let from = 0;
    if (this.pending.length > 0) {
      // the line left open by the last chunk ends at this one's first LF: hashed with what was
      // kept of it, the rest of the chunk as it lies (no copy of the whole chunk)
      const lf = chunk.indexOf(0x0a);
      if (lf >= 0 && lf < cut) {
        this.pending.push(chunk.subarray(0, lf + 1));
        this.emit(Buffer.concat(this.pending));
        this.pending = [];
        from = lf + 1;
      }
    }
    this.pending.push(chunk.subarray(from, cut + 1));
    this.emit(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
    // what is kept past this push is copied: the caller may read into the chunk's buffer again
    this.pending = cut + 1 < chunk.length ? [Buffer.from(chunk.subarray(cut + 1))] : [];
  }

  /** The 4-hex tag of everything pushed. */
  end(): string {
    if (this.pending.length > 0) this.emit(this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending));
    this.pending = [];
    return formatTag(this.hasher.digest());
  }
}

/** The tag of bytes in memory (a file's whole content). */
export function tagOfFileBytes(bytes: Uint8Array): string {
  const body = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  // the whole text needs no normalization: one hash, nothing cut
  if (hashesAsItCame(body)) return formatTag(xxhash32(body));
  const t = new ByteTagger();
  t.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return t.end();
}
