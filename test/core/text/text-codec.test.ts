// The escaping codec: decodeBytes and encodeText against the plain construction they replace (each
// valid run through TextDecoder, each invalid byte U+DC00+byte; each escape its byte, the rest
// through TextEncoder), and the round trip of every byte string.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeBytes, encodeText } from '../../../src/core/text/text-codec.js';

const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** The decode as a run of TextDecoder calls: the reference. */
function referenceDecode(bytes: Uint8Array): string {
  // a valid sequence is one TextDecoder takes whole; an invalid byte is one it would replace
  let out = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    let n = 0;
    for (let k = 1; k <= 4 && i + k <= bytes.length; k++) {
      try {
        fatal.decode(bytes.subarray(i, i + k));
        n = k;
        break;
      } catch {
        // not a whole sequence of k bytes
      }
    }
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
  return out;
}

/** The encode as TextEncoder runs between escapes: the reference. */
function referenceEncode(text: string): Uint8Array {
  const parts: number[] = [];
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff) {
      const prev = i > 0 ? text.charCodeAt(i - 1) : 0;
      if (prev >= 0xd800 && prev <= 0xdbff) continue;
      parts.push(...encoder.encode(text.slice(runStart, i)), c - 0xdc00);
      runStart = i + 1;
    }
  }
  parts.push(...encoder.encode(text.slice(runStart)));
  return Uint8Array.from(parts);
}

// bytes that make every kind of sequence: ASCII, BOM, 2/3/4-byte starts, continuations, overlongs,
// surrogates encoded in UTF-8, past U+10FFFF, bytes never valid
const byte = fc.constantFrom(0x61, 0x0a, 0x0d, 0x00, 0xef, 0xbb, 0xbf, 0xc2, 0xa9, 0xc0, 0xc1, 0xe0, 0xa0, 0x80, 0xed, 0x9f, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff, 0xfe, 0xdf);
const bytes = fc.oneof(fc.array(byte, { maxLength: 40 }), fc.uint8Array({ maxLength: 60 }).map((a) => [...a]));

test('property: decodeBytes gives what TextDecoder runs and escapes give, and encodes back to the bytes', () => {
  fc.assert(
    fc.property(bytes, (arr) => {
      const b = Uint8Array.from(arr);
      const { text } = decodeBytes(b);
      assert.equal(text, referenceDecode(b));
      assert.deepEqual(encodeText(text), b);
    }),
    { numRuns: 5000 },
  );
});

const unit = fc.constantFrom('a', '\n', 'é', '€', '\u{1F600}', '\ud800', '\udbff', '\udc00', '\udc80', '\udcff', '\udfff', '\ud83d', '\ude00', '\ufeff');

test('property: encodeText gives what TextEncoder runs between escapes give, lone surrogates included', () => {
  fc.assert(
    fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(encodeText(text), referenceEncode(text));
    }),
    { numRuns: 5000 },
  );
});

test('a large buffer of random bytes decodes as the reference does and encodes back', () => {
  const b = randomBytes(64 * 1024);
  const { text, utf8 } = decodeBytes(b);
  assert.equal(utf8, false);
  assert.equal(text, referenceDecode(b));
  assert.deepEqual(Buffer.from(encodeText(text)), b);
});
