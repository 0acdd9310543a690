// The journal of a session's own edits: the chain from a text read to the live text, newest
// edits first; broken by a text the session did not write; kept apart per session and file; bounded.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EditJournal, JOURNAL_EDITS } from '../../../src/core/merge/edit-journal.js';
import type { EditShape } from '../../../src/core/merge/edit-shape.js';

const shape = (from: number, to: number): EditShape => ({ from, to, spans: [] });

test("the chain of a session's own edits from a text to another", () => {
  const j = new EditJournal();
  const s1 = shape(1, 2);
  const s2 = shape(2, 3);
  j.record('S', '/f', 'A', 'B', s1);
  j.record('S', '/f', 'B', 'C', s2);
  assert.deepEqual(j.chain('S', '/f', 'A', 'C'), [s1, s2]);
  assert.deepEqual(j.chain('S', '/f', 'B', 'C'), [s2]);
  assert.deepEqual(j.chain('S', '/f', 'A', 'B'), [s1]);
  // no chain: the same text, a text never written, another session, another file, backwards
  assert.equal(j.chain('S', '/f', 'C', 'C'), null);
  assert.equal(j.chain('S', '/f', 'A', 'X'), null);
  assert.equal(j.chain('T', '/f', 'A', 'C'), null);
  assert.equal(j.chain('S', '/g', 'A', 'C'), null);
  assert.equal(j.chain('S', '/f', 'C', 'A'), null);
});

test('a text written by someone else breaks the chain', () => {
  const j = new EditJournal();
  j.record('S', '/f', 'A', 'B', shape(1, 1));
  // the file became C elsewhere, the session read it and edited C into D
  j.record('S', '/f', 'C', 'D', shape(1, 1));
  assert.equal(j.chain('S', '/f', 'A', 'D'), null);
  assert.ok(j.chain('S', '/f', 'C', 'D'));
});

test('the newest edit that wrote a text is the one followed', () => {
  const j = new EditJournal();
  const old = shape(1, 1);
  const newer = shape(1, 1);
  j.record('S', '/f', 'A', 'B', old);
  j.record('S', '/f', 'B', 'A', shape(1, 1));
  j.record('S', '/f', 'A', 'B', newer);
  assert.equal(j.chain('S', '/f', 'A', 'B')![0], newer);
});

test('texts are told apart by every UTF-16 unit (escaped bytes included)', () => {
  const j = new EditJournal();
  j.record('S', '/f', 'x\uDC99\n', 'B', shape(1, 1));
  assert.equal(j.chain('S', '/f', 'x\uDC92\n', 'B'), null);
  assert.ok(j.chain('S', '/f', 'x\uDC99\n', 'B'));
});

test('only the last edits of a file are kept', () => {
  const j = new EditJournal();
  for (let k = 0; k <= JOURNAL_EDITS; k++) j.record('S', '/f', `t${k}`, `t${k + 1}`, shape(1, 1));
  assert.equal(j.chain('S', '/f', 't0', `t${JOURNAL_EDITS + 1}`), null);
  assert.equal(j.chain('S', '/f', 't1', `t${JOURNAL_EDITS + 1}`)!.length, JOURNAL_EDITS);
});
