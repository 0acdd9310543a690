// The tag of bytes without decoding (core/text/byte-tag.ts) must equal the tag of the decoded,
// LF, BOM-less text (computeTag(docText(parseDoc(bytes))), the slow path) for every input, however
// the bytes are cut into chunks: CR, CRLF, lone CR, trailing blanks and tabs, a BOM, bytes that
// are not UTF-8, NUL, empty files, with and without a final newline.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ByteTagger, hashesAsItCame, tagOfFileBytes } from '../../../src/core/text/byte-tag.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';

const slowTag = (bytes: Uint8Array) => computeTag(docText(parseDoc(bytes)));

const FRAGMENTS: Uint8Array[] = [
  ...['a', 'word', 'é', '€', '😀', ' ', '\t', '\r', '\n', '\r\n', ' \n', '\t\r\n', '\0', '\uFEFF'].map((s) => Buffer.from(s)),
  Uint8Array.of(0xef, 0xbb, 0xbf), // a BOM (anywhere: only a leading one is dropped)
  Uint8Array.of(0xff),
  Uint8Array.of(0xc3), // a lead byte without its continuation
  Uint8Array.of(0x80),
  Uint8Array.of(0xed, 0xa0, 0x80), // an encoded surrogate: not UTF-8
  Uint8Array.of(0xe2, 0x82), // a sequence cut short
];

/** Plain text longer than the tagger scans in JavaScript. */
const PLAIN_BLOCK = Buffer.from('a plain line\n'.repeat(400));

const bytesArb = fc.oneof(
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => Buffer.concat(parts)),
  fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)),
  // mostly plain text: the fast path's own ground
  fc.array(fc.constantFrom('x', 'yz', ' y', '\n', 'ü'), { maxLength: 80 }).map((parts) => Buffer.from(parts.join(''))),
  // past the size checked in one JavaScript pass: the native searches decide
  fc.tuple(fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }), fc.boolean()).map(([parts, head]) =>
    head ? Buffer.concat([...parts, PLAIN_BLOCK]) : Buffer.concat([PLAIN_BLOCK, ...parts]),
  ),
);

/** Feeds `bytes` to a tagger cut at the given points. */
function chunkedTag(bytes: Buffer, cuts: number[]): string {
  const t = new ByteTagger();
  let at = 0;
  for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
    t.push(bytes.subarray(at, c));
    at = c;
  }
  t.push(bytes.subarray(at));
  return t.end();
}

test('property: the tag of the bytes equals the tag of the decoded LF text, in one piece or in chunks', () => {
  fc.assert(
    fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
      const want = slowTag(bytes);
      assert.equal(tagOfFileBytes(bytes), want);
      assert.equal(chunkedTag(bytes, cuts), want);
    }),
    { numRuns: 5000 },
  );
});

test('the fixed cases: empty, no final newline, blanks at the end, CR only, a BOM, NUL', () => {
  const cases = ['', 'a', 'a\n', 'a ', 'a\t', 'a \n', 'a\r', 'a\rb', 'a\r\nb\r\n', '\uFEFFa\n', '\uFEFF', 'a\0b\n', ' \n\n \n', '\n', '\r\n'];
  for (const s of cases) assert.equal(tagOfFileBytes(Buffer.from(s)), slowTag(Buffer.from(s)), JSON.stringify(s));
  assert.equal(tagOfFileBytes(Buffer.from('a \r\nb\n')), tagOfFileBytes(Buffer.from('a\nb\n')));
  assert.equal(tagOfFileBytes(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61, 0x0a)), tagOfFileBytes(Buffer.from('a\n')));
});

test('a large file, plain or not, in chunks of every size a read gives', () => {
  const plain = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i} ü`).join('\n'));
  const messy = Buffer.concat([plain, Buffer.from(' \r\n\t'), Uint8Array.of(0xff), plain.subarray(0, 70_000)]);
  const noNewline = Buffer.alloc(300_000, 'x');
  for (const bytes of [plain, messy, noNewline]) {
    const want = slowTag(bytes);
    for (const step of [1 << 12, 1 << 16, 100_003]) {
      const t = new ByteTagger();
      for (let at = 0; at < bytes.length; at += step) t.push(bytes.subarray(at, at + step));
      assert.equal(t.end(), want, `step ${step}`);
    }
  }
});

test('hashesAsItCame on a large segment finds a blank or tab before a newline wherever it is (the backward searches)', () => {
  const line = 'a plain line of code\n';
  const body = line.repeat(400);
  assert.equal(hashesAsItCame(Buffer.from(body)), true);
  for (const bad of [' \n', '\t\n', '\r\n', '\r']) {
    for (const text of [bad + body, body.slice(0, 4000) + bad + body.slice(4000), body + bad, `${body}x${bad}`]) {
      assert.equal(hashesAsItCame(Buffer.from(text)), false, JSON.stringify(bad) + ' at ' + text.indexOf(bad));
    }
  }
  assert.equal(hashesAsItCame(Buffer.from(`${body}end `)), false);
  assert.equal(hashesAsItCame(Buffer.from(`${body}a \tb\n`)), true);
});
