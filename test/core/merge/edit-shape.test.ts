// The exact line map of an applied edit: lines and gaps mapped through replaced ranges, deletions
// and insertions; a map that disagrees with the pieces is not kept; a later edit written against
// the older text carried through one or several such maps, or refused where a hunk has no place.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyHunks, piecesToLines, textLines } from '../../../src/core/edit/apply.js';
import type { Hunk } from '../../../src/core/edit/ops.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { resolvePlan } from '../../../src/core/edit/plan.js';
import { carryHunks, mapGap, mapLine, shapeOf, type EditShape } from '../../../src/core/merge/edit-shape.js';

const LINES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

function plan(lines: readonly string[], ops: string): Hunk[] {
  return resolvePlan(parseEditOps(ops).ops, { lineCount: lines.length, text: `${lines.join('\n')}\n` });
}

/** Applies `ops` to `lines`: the new lines and the shape of that edit. */
function edit(lines: readonly string[], ops: string): { lines: string[]; shape: EditShape } {
  const hunks = plan(lines, ops);
  const pieces = applyHunks(lines, hunks);
  const shape = shapeOf(lines.length, hunks, pieces);
  assert.ok(shape !== null);
  return { lines: piecesToLines(lines, pieces), shape };
}

/** Our edit written against `read`, carried through `chain` onto `live`: the result, or null. */
function carry(read: readonly string[], chain: EditShape[], live: readonly string[], ops: string): string[] | null {
  const out = carryHunks(plan(read, ops), chain, read, live);
  return out === null ? null : piecesToLines(live, applyHunks(live, out));
}

test('lines and gaps through a replacement, a deletion and an insertion', () => {
  // line 2 (b) rewritten as two rows, line 4 (d) deleted, two rows inserted after line 6 (f)
  const { lines, shape } = edit(LINES, 'replace 2:\n+b1\n+b2\ndelete 4\ninsert after 6:\n+x\n+y');
  assert.deepEqual(lines, ['a', 'b1', 'b2', 'c', 'e', 'f', 'x', 'y', 'g']);
  assert.deepEqual(
    LINES.map((_, i) => mapLine(shape, i)),
    [0, -1, 3, -1, 4, 5, 8],
  );
  // gap g lies between old lines g-1 and g: the edges of a replaced range are the edges of its
  // rows, both edges of a deletion are one place, a gap that received rows has no place
  assert.deepEqual(
    Array.from({ length: LINES.length + 1 }, (_, g) => mapGap(shape, g)),
    [0, 1, 3, 4, 4, 5, -1, 9],
  );
});

test('head and tail insertions leave no place at the file ends', () => {
  const { shape } = edit(LINES, 'insert head:\n+H\ninsert tail:\n+T');
  assert.equal(mapGap(shape, 0), -1);
  assert.equal(mapGap(shape, LINES.length), -1);
  assert.equal(mapGap(shape, 3), 4);
  assert.equal(mapLine(shape, 0), 1);
});

test('a shape that disagrees with the pieces is not kept', () => {
  const hunks = plan(LINES, 'replace 2:\n+B');
  const pieces = applyHunks(LINES, hunks);
  assert.ok(shapeOf(LINES.length, hunks, pieces) !== null);
  // pieces of another edit (line 3 replaced instead)
  assert.equal(shapeOf(LINES.length, hunks, applyHunks(LINES, plan(LINES, 'replace 3:\n+C'))), null);
  assert.equal(shapeOf(LINES.length, hunks, pieces.slice(1)), null);
});

test('a kept line out of place between the spans is found, in any run of them', () => {
  const lines = Array.from({ length: 40 }, (_, i) => `l${i}`);
  const hunks = plan(lines, 'replace 10:\n+x\ninsert after 25:\n+y');
  const pieces = applyHunks(lines, hunks);
  assert.ok(shapeOf(lines.length, hunks, pieces) !== null);
  // in the run before the first span, between the spans, after the last: a kept line swapped for
  // another, for new text of the same length, or for a copy of itself one place on
  for (const at of [3, 17, 35]) {
    for (const swap of [{ src: at + 1 }, { text: lines[at]! }]) {
      const bad = pieces.slice();
      bad[at] = swap;
      assert.equal(shapeOf(lines.length, hunks, bad), null, `${at} ${JSON.stringify(swap)}`);
    }
  }
});

test('after a line the session rewrote into two rows, "insert after" lands after the rewrite', () => {
  // the agent read a..g, rewrote line 3 as itself plus a new row, then inserts after line 3 with the old tag
  const prior = edit(LINES, 'replace 3:\n+c\n+new');
  assert.deepEqual(carry(LINES, [prior.shape], prior.lines, 'insert after 3:\n+mine\ndelete 5'), ['a', 'b', 'c', 'new', 'mine', 'd', 'f', 'g']);
  // "insert before 4" is the same place
  assert.deepEqual(carry(LINES, [prior.shape], prior.lines, 'insert before 4:\n+mine'), ['a', 'b', 'c', 'new', 'mine', 'd', 'e', 'f', 'g']);
  // and "insert before 3" (the gap above the rewritten line) goes above the rewrite
  assert.deepEqual(carry(LINES, [prior.shape], prior.lines, 'insert before 3:\n+mine'), ['a', 'b', 'mine', 'c', 'new', 'd', 'e', 'f', 'g']);
});

test('after a line the session deleted, "insert after" lands where it was', () => {
  const prior = edit(LINES, 'delete 4');
  assert.deepEqual(carry(LINES, [prior.shape], prior.lines, 'insert after 4:\n+mine'), ['a', 'b', 'c', 'mine', 'e', 'f', 'g']);
  assert.deepEqual(carry(LINES, [prior.shape], prior.lines, 'delete 2\ninsert after 3:\n+mine'), ['a', 'c', 'mine', 'e', 'f', 'g']);
});

test('lines whose text repeats are carried by what happened to them, not by their text', () => {
  const read = ['x', 'same', 'same', 'y', 'same', 'same', 'z'];
  // the session deleted the first "same"; lines 5-6 are still lines 4-5 now, though "same same" also sits at 2-3
  const prior = edit(read, 'delete 2');
  assert.deepEqual(carry(read, [prior.shape], prior.lines, 'delete 5..6'), ['x', 'same', 'y', 'z']);
  assert.deepEqual(carry(read, [prior.shape], prior.lines, 'replace 3:\n+S'), ['x', 'S', 'y', 'same', 'same', 'z']);
});

test('through several edits of the session', () => {
  const one = edit(LINES, 'insert after 1:\n+n1');
  const two = edit(one.lines, 'replace 4:\n+C');
  const three = edit(two.lines, 'delete 7');
  assert.deepEqual(three.lines, ['a', 'n1', 'b', 'C', 'd', 'e', 'g']);
  assert.deepEqual(carry(LINES, [one.shape, two.shape, three.shape], three.lines, 'replace 5:\n+E\ninsert after 6:\n+mine'), ['a', 'n1', 'b', 'C', 'd', 'E', 'mine', 'g']);
  // a line a later edit rewrote has no place
  assert.equal(carry(LINES, [one.shape, two.shape, three.shape], three.lines, 'replace 3:\n+X'), null);
  // a chain whose line counts do not lead from the read text to the live text is not used
  assert.equal(carry(LINES, [one.shape], three.lines, 'replace 5:\n+E'), null);
  assert.equal(carry(LINES, [two.shape, three.shape], three.lines, 'replace 5:\n+E'), null);
});

test('refused: a line the session replaced, a gap where it inserted, a gap inside what it replaced', () => {
  const prior = edit(LINES, 'replace 3..4:\n+C\ninsert after 6:\n+n');
  assert.equal(carry(LINES, [prior.shape], prior.lines, 'replace 4:\n+X'), null);
  assert.equal(carry(LINES, [prior.shape], prior.lines, 'replace 2..3:\n+X'), null);
  // two insertions at one gap have no order
  assert.equal(carry(LINES, [prior.shape], prior.lines, 'insert after 6:\n+mine'), null);
  assert.equal(carry(LINES, [prior.shape], prior.lines, 'insert before 7:\n+mine'), null);
  // between line 3 and 4, both replaced by one row
  assert.equal(carry(LINES, [prior.shape], prior.lines, 'insert after 3:\n+mine'), null);
  // a range the session's rows now split
  const split = edit(LINES, 'insert after 2:\n+n');
  assert.equal(carry(LINES, [split.shape], split.lines, 'replace 2..3:\n+X'), null);
  // its edges are fine
  assert.deepEqual(carry(LINES, [split.shape], split.lines, 'replace 3..4:\n+X'), ['a', 'b', 'n', 'X', 'e', 'f', 'g']);
});

test('a range carried onto lines whose text is not what was read is refused', () => {
  const prior = edit(LINES, 'delete 1');
  const tampered = [...prior.lines];
  tampered[2] = 'D!';
  assert.equal(carry(LINES, [prior.shape], tampered, 'replace 4:\n+X'), null);
  assert.equal(carryHunks(plan(LINES, 'replace 4:\n+X'), [prior.shape], LINES, textLines('a\nb\n')), null);
});
