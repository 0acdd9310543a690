// The read-ahead budget of the tar packer: a hold takes within its own limit and the process's
// budget, gives back as content is sent, and releases the rest once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrefetchBudget, PrefetchHold } from '../../../src/http/tar/prefetch-budget.js';

test('a hold takes within its limit and the shared budget, and gives everything back', () => {
  const budget = new PrefetchBudget(100);
  const a = budget.hold(60);
  const b = budget.hold(60);
  assert.equal(a.take(50), true);
  assert.equal(a.take(20), false, 'over the limit of the hold');
  assert.equal(b.take(60), false, 'over what the process has left');
  assert.equal(b.take(50), true);
  assert.equal(budget.available, 0);
  a.give(30);
  assert.equal(budget.available, 30);
  assert.equal(a.take(10), true, 'the limit counts what was taken, not what is held');
  assert.equal(a.take(1), false);
  a.release();
  a.release();
  b.release();
  assert.equal(budget.available, 100);
  assert.equal(a.holding + b.holding, 0);
});

test('giving back more than is held gives back only what is held', () => {
  const budget = new PrefetchBudget(10);
  const h = budget.hold(10);
  assert.equal(h.take(4), true);
  h.give(9);
  assert.equal(budget.available, 10);
});

test('a hold without a shared budget keeps to its own limit', () => {
  const h = new PrefetchHold(8);
  assert.equal(h.take(8), true);
  assert.equal(h.take(1), false);
});
