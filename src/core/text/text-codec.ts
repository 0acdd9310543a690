// Lossless bytes <-> string for text that may not be valid UTF-8 ("surrogateescape"):
// every byte that is not part of a valid UTF-8 sequence becomes the lone surrogate U+DC00+byte,
// and encoding turns such a surrogate back into that byte. Valid UTF-8 never decodes to a lone
// surrogate, so the round trip is exact for every byte string.

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

const ESCAPED = /[\uDC80-\uDCFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Length of the valid UTF-8 sequence starting at i, or 0 when the byte there starts none. */
function sequenceLength(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const x = b[i + k];
    return x !== undefined && x >= lo && x <= hi;
  };
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
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
  let out = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    if (i > runStart) out += lenient.decode(bytes.subarray(runStart, i));
    out += String.fromCharCode(0xdc00 + bytes[i]!);
    i += 1;
    runStart = i;
  }
  if (runStart < bytes.length) out += lenient.decode(bytes.subarray(runStart));
  return { text: out, utf8: false };
}

/** Encodes a string, turning escaped bytes (U+DC80..U+DCFF) back into the raw bytes. */
export function encodeText(text: string): Uint8Array {
  if (!ESCAPED.test(text)) return encoder.encode(text);
  const parts: Uint8Array[] = [];
  let size = 0;
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
      if (prev >= 0xd800 && prev <= 0xdbff) continue; // a real surrogate pair
      if (i > runStart) {
        const chunk = encoder.encode(text.slice(runStart, i));
        parts.push(chunk);
        size += chunk.length;
      }
      parts.push(Uint8Array.of(c - 0xdc00));
      size += 1;
      runStart = i + 1;
    }
  }
  if (runStart < text.length) {
    const chunk = encoder.encode(text.slice(runStart));
    parts.push(chunk);
    size += chunk.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
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
