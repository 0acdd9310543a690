// TurnBatch (src/http/turn-batch.ts): what is added during one turn of the event loop is handed
// over once, in order, after that turn's callbacks; what is added later (during the hand-over
// included) waits for the next hand-over.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TurnBatch } from '../../src/http/turn-batch.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

test('items added in one turn are handed over once, in order', async () => {
  const handed: string[][] = [];
  const batch = new TurnBatch<string>((items) => handed.push([...items]));
  batch.add('a');
  batch.add('b');
  await Promise.resolve(); // a microtask is still the same turn
  batch.add('c');
  assert.equal(batch.size, 3);
  assert.deepEqual(handed, [], 'nothing before the turn ends');
  await nextTurn();
  assert.deepEqual(handed, [['a', 'b', 'c']]);
  assert.equal(batch.size, 0);
});

test('an item added during or after a hand-over goes to the next one', async () => {
  const handed: number[][] = [];
  const batch = new TurnBatch<number>((items) => {
    handed.push([...items]);
    if (items[0] === 1) batch.add(2);
  });
  batch.add(1);
  await nextTurn();
  assert.deepEqual(handed, [[1]]);
  await nextTurn();
  assert.deepEqual(handed, [[1], [2]]);
  batch.add(3);
  await nextTurn();
  assert.deepEqual(handed, [[1], [2], [3]]);
});

test('an empty turn hands nothing over', async () => {
  let calls = 0;
  new TurnBatch<number>(() => calls++);
  await nextTurn();
  await nextTurn();
  assert.equal(calls, 0);
});
