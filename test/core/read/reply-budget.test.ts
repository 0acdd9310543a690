import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonEscapedBytes } from '../../../src/core/read/reply-budget.js';

test('jsonEscapedBytes counts escapes and UTF-8 bytes as sent', () => {
  const cases: Array<[string, number]> = [
    ['', 0],
    ['plain', 5],
    ['a"b\\c\n', 9], // a, \", b, \\, c, \n
    ['\t\r\b\f', 8],
    ['\u0001\u001f', 12], // \u0001 and \u001f
    ['é', 2],
    ['…', 3],
    ['😀', 4],
    ['\ud800', 6], // a lone surrogate is written as \ud800
  ];
  for (const [s, n] of cases) assert.equal(jsonEscapedBytes(s), n, JSON.stringify(s));
});

test('jsonEscapedBytes lies between the UTF-8 size and six bytes per UTF-16 unit', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 })), (s: string) => {
      const n = jsonEscapedBytes(s);
      assert.ok(n >= Buffer.byteLength(s) && n <= 6 * s.length, `${JSON.stringify(s)}: ${n}`);
    }),
    { numRuns: 3000 },
  );
});

test('jsonEscapedBytes equals the UTF-8 size of JSON.stringify, lone surrogates and controls included', () => {
  const sent = (s: string) => Buffer.byteLength(JSON.stringify(s)) - 2;
  fc.assert(
    fc.property(
      fc.oneof(
        // any UTF-16 units: lone surrogates too
        fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 80 }).map((u) => String.fromCharCode(...u)),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ unit: 'binary-ascii', maxLength: 80 }),
      ),
      (s: string) => assert.equal(jsonEscapedBytes(s), sent(s), JSON.stringify(s)),
    ),
    { numRuns: 5000 },
  );
  // long strings (a whole read's body) take the counting by searches unless a rare escape is there
  const long = (parts: string[]) => fc.array(fc.constantFrom(...parts), { minLength: 4096, maxLength: 6000 }).map((a) => a.join(''));
  fc.assert(
    fc.property(
      fc.oneof(
        long(['abcd', '"', '\\', '\t', '\n', 'é', '…', ' ', '12| ']),
        long(['abcd', '"', '\n', '\r', '\b', '\u0001', '\u001f', '\u007f']),
        long(['abcd', '\n', '😀', '\ud800', '\udcff', 'é']),
      ),
      (s: string) => assert.equal(jsonEscapedBytes(s), sent(s)),
    ),
    { numRuns: 120 },
  );
  for (const s of ['\udc00x', 'x\ud83d', '\ud83d\ud83d\ude00', '\ude00\ud83d', '\u007f\u0000"\\']) assert.equal(jsonEscapedBytes(s), sent(s), JSON.stringify(s));
});
