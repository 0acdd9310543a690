// The history's write queue and text cache: what the queue says it touches, and that a commit takes
// it whole; the cache keeps texts up to its character budget, the least recently stored dropped first.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextCache } from '../../../src/io/history/text-cache.js';
import { WriteQueue } from '../../../src/io/history/write-queue.js';

test('the queue knows the paths its writes touch; a rename touches every path; take empties it', () => {
  const q = new WriteQueue();
  const op = function* () {
    return undefined;
  };
  q.push(['/r/a'], op);
  assert.equal(q.size, 1);
  assert.equal(q.touches('/r/a'), true);
  assert.equal(q.touches('/r/b'), false);
  q.push(['/r/a', '/r/c'], op);
  assert.equal(q.touches('/r/b'), true, 'a queued rename may pull any path up the window');
  assert.deepEqual(q.take(), [op, op]);
  assert.equal(q.size, 0);
  assert.equal(q.touches('/r/a'), false);
  assert.equal(q.touches('/r/b'), false);
});

test('the text cache drops the least recently stored texts beyond its budget', () => {
  const c = new TextCache(10);
  c.set('a', 'aaaa');
  c.set('b', 'bbbb');
  c.set('a', 'aaaa'); // stored again: now the most recent
  c.set('c', 'cccc');
  assert.equal(c.has('b'), false);
  assert.equal(c.get('a'), 'aaaa');
  assert.equal(c.get('c'), 'cccc');
});

test('records queued one after the other are taken as one operation; other writes keep their place between them', () => {
  const q = new WriteQueue();
  const op = function* () {
    return undefined;
  };
  const fields = (p: string) => ({ path: p, sha256: p, tag: 'T', kind: 'text' as const, data: new Uint8Array(), op: 'made', time: 1, origin: undefined, limits: { maxPaths: 50, maxVersionsPerPath: 10 } });
  q.push(['/r/a'], op, { record: fields('/r/a') });
  q.push(['/r/b'], op, { record: fields('/r/b') });
  q.push(['/r/c'], op);
  q.push(['/r/d'], op, { record: fields('/r/d') });
  const taken = q.take();
  assert.equal(taken.length, 3);
  assert.notEqual(taken[0], op, 'the two records as one');
  assert.equal(taken[1], op);
  assert.equal(taken[2], op, 'a record alone stays as it was queued');
});
