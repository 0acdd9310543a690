// What this process last wrote per path: found only for exactly those bytes, bounded, large files not kept.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDocAndText } from '../../../src/core/text/text-doc.js';
import { WRITTEN_MAX_BYTES, WRITTEN_PATHS, WrittenTexts, type WrittenText } from '../../../src/io/read/written-texts.js';

const written = (s: string): WrittenText => {
  const bytes = new TextEncoder().encode(s);
  const { doc, text } = parseDocAndText(bytes);
  return { bytes, doc, text, tag: 'ABCD' };
};
const enc = (s: string) => new TextEncoder().encode(s);

test('found for the same bytes at the same path only', () => {
  const w = new WrittenTexts();
  const a = written('one\ntwo\n');
  w.remember('/r/a', a);
  assert.equal(w.match('/r/a', enc('one\ntwo\n')), a);
  // a Buffer over a larger pool, at an offset
  const pooled = Buffer.from('xxone\ntwo\nyy').subarray(2, 10);
  assert.equal(w.match('/r/a', pooled), a);
  assert.equal(w.match('/r/a', enc('one\ntwo!')), undefined, 'same size, other bytes');
  assert.equal(w.match('/r/a', enc('one\ntwo\n\n')), undefined);
  assert.equal(w.match('/r/b', enc('one\ntwo\n')), undefined);
  w.forget('/r/a');
  assert.equal(w.match('/r/a', enc('one\ntwo\n')), undefined);
});

test('the newest write of a path replaces the older; the least recently written paths go first; large files are not kept', () => {
  const w = new WrittenTexts();
  w.remember('/r/a', written('1\n'));
  w.remember('/r/a', written('2\n'));
  assert.equal(w.match('/r/a', enc('1\n')), undefined);
  assert.ok(w.match('/r/a', enc('2\n')));
  for (let i = 0; i < WRITTEN_PATHS; i++) w.remember(`/r/p${i}`, written(`${i}\n`));
  assert.equal(w.match('/r/a', enc('2\n')), undefined, 'pushed out');
  assert.ok(w.match(`/r/p0`, enc('0\n')));
  const big = 'x'.repeat(WRITTEN_MAX_BYTES) + '\n';
  w.remember('/r/p0', written(big));
  assert.equal(w.match('/r/p0', enc(big)), undefined);
  assert.equal(w.match('/r/p0', enc('0\n')), undefined, 'the older write of the path is gone too');
});
