// Lossless bytes <-> string for text that may not be valid UTF-8 ("surrogateescape"):
// every byte that is not part of a valid UTF-8 sequence becomes the lone surrogate U+DC00+byte,
// and encoding turns such a surrogate back into that byte. Valid UTF-8 never decodes to a lone
// surrogate, so the round trip is exact for every byte string.

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

const ESCAPED = /[\uDC80-\uDCFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when b[k] exists and lies in lo..hi (a continuation byte, by default). */
function inRange(b: Uint8Array, k: number, lo = 0x80, hi = 0xbf): boolean {
  const x = b[k];
  return x !== undefined && x >= lo && x <= hi;
}

/** Length of the valid UTF-8 sequence starting at i, or 0 when the byte there starts none. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  if (c < 0xc2) return 0;
  if (c <= 0xdf) return inRange(b, i + 1) ? 2 : 0;
  if (c === 0xe0) return inRange(b, i + 1, 0xa0) && inRange(b, i + 2) ? 3 : 0;
  if (c <= 0xec || c === 0xee || c === 0xef) return inRange(b, i + 1) && inRange(b, i + 2) ? 3 : 0;
  if (c === 0xed) return inRange(b, i + 1, 0x80, 0x9f) && inRange(b, i + 2) ? 3 : 0;
  if (c === 0xf0) return inRange(b, i + 1, 0x90) && inRange(b, i + 2) && inRange(b, i + 3) ? 4 : 0;
  if (c <= 0xf3) return inRange(b, i + 1) && inRange(b, i + 2) && inRange(b, i + 3) ? 4 : 0;
  if (c === 0xf4) return inRange(b, i + 1, 0x80, 0x8f) && inRange(b, i + 2) && inRange(b, i + 3) ? 4 : 0;
  return 0;
}

export interface Decoded {
  text: string;
  /** False when at least one byte was escaped. */
  utf8: boolean;
}

/** Decodes bytes, escaping every byte that is not valid UTF-8. */
export function decodeBytes(bytes: Uint8Array): Decoded {
  try {
    return { text: fatal.decode(bytes), utf8: true };
  } catch {
    // fall through to the escaping decoder
  }
  return { text: escapingDecode(bytes), utf8: false };
}

/** Code units are turned into a string this many at a time. */
const UNITS_PER_PIECE = 64 * 1024;

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** The string of the first `n` code units (lone surrogates kept as they are). */
function utf16(units: Uint16Array, n: number): string {
  if (LITTLE_ENDIAN) return Buffer.from(units.buffer, units.byteOffset, n * 2).toString('utf16le');
  const parts: string[] = [];
  for (let k = 0; k < n; k += 8192) parts.push(String.fromCharCode.apply(null, units.subarray(k, Math.min(n, k + 8192)) as unknown as number[]));
  return parts.join('');
}

/**
 * The escaping decode of bytes that are not all valid UTF-8, in one pass: each valid sequence
 * becomes its code point's UTF-16 units, each other byte U+DC00+byte. Linear in the bytes,
 * whatever their share of invalid ones (a decoder call per invalid byte costs a microsecond).
 */
function escapingDecode(b: Uint8Array): string {
  const units = new Uint16Array(UNITS_PER_PIECE + 1);
  const pieces: string[] = [];
  let n = 0;
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const len = c < 0x80 ? 1 : sequenceLength(b, i);
    if (len === 1) units[n++] = c;
    else if (len === 2) units[n++] = ((c & 0x1f) << 6) | (b[i + 1]! & 0x3f);
    else if (len === 3) units[n++] = ((c & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
    else if (len === 4) {
      const cp = (((c & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f)) - 0x10000;
      units[n++] = 0xd800 + (cp >> 10);
      units[n++] = 0xdc00 + (cp & 0x3ff);
    } else units[n++] = 0xdc00 + c;
    i += len === 0 ? 1 : len;
    if (n >= UNITS_PER_PIECE) {
      pieces.push(utf16(units, n));
      n = 0;
    }
  }
  if (n > 0) pieces.push(utf16(units, n));
  return pieces.join('');
}

/** Encodes a string, turning escaped bytes (U+DC80..U+DCFF) back into the raw bytes. */
export function encodeText(text: string): Uint8Array {
  if (!ESCAPED.test(text)) return encoder.encode(text);
  // one pass: a pair is its code point, an escaped byte (a lone U+DC80..U+DCFF) the byte itself,
  // any other lone surrogate U+FFFD (as TextEncoder encodes it)
  const out = new Uint8Array(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) out[at++] = c;
    else if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = c <= 0xdbff && i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        out[at++] = 0xf0 | (cp >> 18);
        out[at++] = 0x80 | ((cp >> 12) & 0x3f);
        out[at++] = 0x80 | ((cp >> 6) & 0x3f);
        out[at++] = 0x80 | (cp & 0x3f);
        i++;
      } else if (c >= 0xdc80 && c <= 0xdcff) out[at++] = c - 0xdc00;
      else {
        out[at++] = 0xef;
        out[at++] = 0xbf;
        out[at++] = 0xbd;
      }
    } else {
      out[at++] = 0xe0 | (c >> 12);
      out[at++] = 0x80 | ((c >> 6) & 0x3f);
      out[at++] = 0x80 | (c & 0x3f);
    }
  }
  return out.slice(0, at);
}

/** True when the string holds escaped (non-UTF-8) bytes. */
export function hasEscapedBytes(text: string): boolean {
  return ESCAPED.test(text);
}

/** True when the string holds a lone UTF-16 surrogate (never valid in text sent by a client). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The text as a person should see it: escaped bytes shown as U+FFFD. */
export function displayText(text: string): string {
  return ESCAPED.test(text) ? text.replace(/(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g, '\uFFFD') : text;
}
