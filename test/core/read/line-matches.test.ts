// Hit lines of a pattern in a text and the windows around them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hitWindows, matchLines } from '../../../src/core/read/line-matches.js';

test('matchLines: each line once, multi-line matches count on every line, zero-length matches do not loop', () => {
  const text = 'a foo foo\nbar\nfoo\n\nbaz foo\n';
  assert.deepEqual(matchLines(text, /foo/g), { lines: [1, 3, 5], more: false });
  assert.deepEqual(matchLines(text, /foo/g, 2), { lines: [1, 3], more: true });
  assert.deepEqual(matchLines(text, /foo\nbar/g).lines, [1, 2]);
  assert.deepEqual(matchLines(text, /^$/gm).lines, [4, 6], 'the empty element after the last newline is reported; callers clamp it');
  assert.deepEqual(matchLines('x\ny', /(?:)/g).lines, [1, 2]);
  assert.deepEqual(matchLines('', /foo/g).lines, []);
});

test('matchLines scans each line once however many matches it holds (work is counted, not timed)', () => {
  const line = 'ab'.repeat(500);
  const text = `${line}\n`.repeat(100);
  let execs = 0;
  const re = /a/g;
  const exec = re.exec.bind(re);
  re.exec = (s: string) => {
    execs++;
    return exec(s);
  };
  assert.equal(matchLines(text, re).lines.length, 100);
  assert.equal(execs, 101);
});

test('hitWindows: context each side, clamped, touching windows merged', () => {
  assert.deepEqual(hitWindows([1, 10, 12, 30], 2, 31), [{ start: 1, end: 3 }, { start: 8, end: 14 }, { start: 28, end: 31 }]);
  assert.deepEqual(hitWindows([5, 9], 1, 20), [{ start: 4, end: 6 }, { start: 8, end: 10 }]);
  assert.deepEqual(hitWindows([5, 8], 1, 20), [{ start: 4, end: 9 }]);
  assert.deepEqual(hitWindows([3], 0, 3), [{ start: 3, end: 3 }]);
});
