// The console's diff model: numbered hunk lines for both layouts, counts of added and removed lines,
// a cap on lines returned, and a refusal (not a hang) for a pair too different to diff.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countChanges, DIFF_LIMITS, diffVersions } from '../../../src/http/console/version-diff.js';

test('hunks carry both line numbers, and counts match', () => {
  const d = diffVersions('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
  assert.equal(d.added, 2);
  assert.equal(d.removed, 1);
  assert.equal(d.tooComplex, false);
  assert.deepEqual(d.hunks[0]!.lines, [
    { kind: ' ', text: 'a', old: 1, new: 1 },
    { kind: '-', text: 'b', old: 2 },
    { kind: '+', text: 'B', new: 2 },
    { kind: ' ', text: 'c', old: 3, new: 3 },
    { kind: ' ', text: 'd', old: 4, new: 4 },
    { kind: '+', text: 'e', new: 5 },
  ]);
  assert.deepEqual(countChanges('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n'), { added: 2, removed: 1 });
});

test('equal texts, a new file, a last line without newline', () => {
  assert.deepEqual(diffVersions('x\n', 'x\n').hunks, []);
  const made = diffVersions('', 'one\ntwo\n');
  assert.deepEqual([made.added, made.removed], [2, 0]);
  const eol = diffVersions('a\nb', 'a\nb\n');
  assert.ok(eol.hunks[0]!.lines.every((l) => !l.text.startsWith('\\')), 'no "No newline" marker lines');
});

test('long diffs are cut at maxLines and say so; counts stay whole', () => {
  const before = Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n');
  const after = Array.from({ length: 300 }, (_, i) => `LINE ${i}`).join('\n');
  const d = diffVersions(before, after, { ...DIFF_LIMITS, maxLines: 50 });
  assert.equal(d.truncated, true);
  assert.equal(d.hunks.reduce((n, h) => n + h.lines.length, 0), 50);
  assert.deepEqual([d.added, d.removed], [300, 300]);
});

test('a pair beyond maxEditLength is reported too complex, not drawn', () => {
  const before = Array.from({ length: 400 }, (_, i) => `a${i}`).join('\n');
  const after = Array.from({ length: 400 }, (_, i) => `b${i}`).join('\n');
  const d = diffVersions(before, after, { ...DIFF_LIMITS, maxEditLength: 10 });
  assert.equal(d.tooComplex, true);
  assert.deepEqual(d.hunks, []);
  assert.equal(countChanges(before, after, 10), null);
});

test('counts agree with the full diff, whatever the head and tail hold', async () => {
  const fc = (await import('fast-check')).default;
  const line = fc.constantFrom('a', 'b', 'c', '', 'x y');
  const text = fc.array(line, { maxLength: 12 }).chain((ls) => fc.boolean().map((eol) => ls.join('\n') + (eol && ls.length > 0 ? '\n' : '')));
  fc.assert(
    fc.property(text, text, (before, after) => {
      const full = diffVersions(before, after, { ...DIFF_LIMITS, context: 0 });
      const counts = countChanges(before, after);
      assert.deepEqual(counts, { added: full.added, removed: full.removed });
    }),
    { numRuns: 300 },
  );
  assert.deepEqual(countChanges('a\nb', 'a\nb\n'), { added: 1, removed: 1 }, 'a line that gains its newline changed');
});
