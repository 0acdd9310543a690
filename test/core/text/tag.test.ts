import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import xxhashInit from 'xxhash-wasm';
import { blankEndsLine, computeTag, formatHeader, normalizeForTag, TagHasher } from '../../../src/core/text/tag.js';
import { splitLines } from '../../../src/core/text/text-doc.js';

const ref = await xxhashInit();
const refTag = (s: string) => (ref.h32Raw(new TextEncoder().encode(s), 0) & 0xffff).toString(16).toUpperCase().padStart(4, '0');

test('the tag is the low 16 bits of xxHash32 of the normalized text, 4 uppercase hex digits', () => {
  assert.equal(computeTag(''), refTag(''));
  assert.equal(computeTag('fn main() {}\n'), refTag('fn main() {}\n'));
  assert.match(computeTag('x'), /^[0-9A-F]{4}$/);
});

test('normalization trims trailing space, tab and CR only, per line, and keeps the final newline', () => {
  assert.equal(normalizeForTag('a  \nb\t\n c \r\n'), 'a\nb\n c\n');
  assert.equal(normalizeForTag('x \t'), 'x');
  assert.equal(computeTag('a  \n'), computeTag('a\n'));
  assert.notEqual(computeTag('a\n'), computeTag('a'));
  assert.notEqual(computeTag(' a\n'), computeTag('a\n'));
});

test('property: CRLF text and LF text share a tag', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme' }).map((s) => s.replace(/[\r\n]/g, '')), { maxLength: 30 }), fc.boolean(), (lines, trailing) => {
      const lf = lines.join('\n') + (trailing ? '\n' : '');
      const crlf = lines.join('\r\n') + (trailing ? '\r\n' : '');
      assert.equal(computeTag(crlf), computeTag(lf));
    }),
    { numRuns: 500 },
  );
});

test('property: the tag matches the reference hash of the normalized text on random input', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
      const clean = s.replace(/[\uD800-\uDFFF]/g, 'x');
      assert.equal(computeTag(clean), refTag(normalizeForTag(clean)));
    }),
    { numRuns: 1000 },
  );
});

test('property: the streaming TagHasher equals computeTag of the LF text', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 300 }), (s) => {
      const text = s.replace(/\r\n?/g, '\n');
      const { lines, endings } = splitLines(text);
      const h = new TagHasher();
      lines.forEach((l, i) => h.pushLine(l, endings[i] !== ''));
      assert.equal(h.digest(), computeTag(text));
    }),
    { numRuns: 1000 },
  );
});

test('header format', () => {
  assert.equal(formatHeader('src/main.rs', '3C4D'), '¶src/main.rs#3C4D');
});

test('property: normalization equals trimming every line by the rule (the shortcut for clean text included)', () => {
  const trimEveryLine = (s: string) => s.split('\n').map((l) => l.replace(/[ \t\r]+$/, '')).join('\n');
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', ' ', '\t', '\r', '\n', 'é'), { maxLength: 30 }), (chars) => {
      const s = chars.join('');
      assert.equal(normalizeForTag(s), trimEveryLine(s));
    }),
    { numRuns: 5000 },
  );
});

test('blankEndsLine: a space or tab right before any newline, and nothing else', () => {
  const body = 'a plain line\n'.repeat(300);
  assert.equal(blankEndsLine(body), false);
  assert.equal(blankEndsLine(''), false);
  assert.equal(blankEndsLine('\n\n'), false);
  assert.equal(blankEndsLine('end '), false);
  for (const bad of [' \n', '\t\n']) {
    for (const text of [bad + body, body.slice(0, 1300) + bad + body.slice(1300), body + bad]) assert.equal(blankEndsLine(text), true, JSON.stringify(bad));
  }
  assert.equal(blankEndsLine('a \tb\nc\t \r\n'), false);
  assert.equal(normalizeForTag(`${body}x \n`), `${body}x\n`);
  assert.equal(normalizeForTag(body), body);
});
