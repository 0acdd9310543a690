import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstChangedLine, unifiedDiff } from '../../../src/core/text/unified-diff.js';

test('unified diff with 3 lines of context; none when equal', () => {
  assert.equal(unifiedDiff('a.txt', 'x\n', 'x\n'), undefined);
  const d = unifiedDiff('a.txt', '1\n2\n3\n4\n5\n6\n7\n8\n', '1\n2\n3\n4\nFIVE\n6\n7\n8\n')!;
  assert.equal(d, '--- a.txt\n+++ a.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+FIVE\n 6\n 7\n 8\n');
});

test('an empty side is numbered as GNU diff does (-0,0 for a new file)', () => {
  assert.match(unifiedDiff('n.txt', '', 'a\nb\n')!, /^@@ -0,0 \+1,2 @@$/m);
  assert.match(unifiedDiff('n.txt', 'a\nb\n', '')!, /^@@ -1,2 \+0,0 @@$/m);
});

test('first changed line', () => {
  assert.equal(firstChangedLine('a\nb\n', 'a\nb\n'), undefined);
  assert.equal(firstChangedLine('a\nb\nc\n', 'a\nB\nc\n'), 2);
  assert.equal(firstChangedLine('a\n', 'a\nb\n'), 2);
});
