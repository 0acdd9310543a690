import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineRootLists, listsAt } from '../../../src/core/config/root-lists.js';
import { decide } from '../../../src/core/config/path-policy.js';

test('listsAt makes a root file’s entries absolute against that root', () => {
  assert.deepEqual(listsAt({ allow: ['/etc/hosts'], block: ['a/b', './c'], readBlock: ['s'] }, '/r'), {
    allow: ['/etc/hosts'],
    block: ['/r/a/b', '/r/c'],
    readAllow: undefined,
    readBlock: ['/r/s'],
  });
});

test('combined lists: each root keeps its own rules for reads, whether it has read lists or not', () => {
  const a = listsAt({ allow: [], block: ['frozen'], readBlock: ['secrets'] }, '/a');
  const b = listsAt({ allow: [], block: ['private'] }, '/b');
  const c = combineRootLists([b, a]);
  const policy = { root: '/b', roots: ['/a'], ...c };
  assert.equal(decide('/a/secrets/k', policy, 'read').kind, 'denied');
  assert.equal(decide('/a/frozen/f', policy, 'write').kind, 'denied');
  assert.equal(decide('/a/frozen/f', policy, 'read').kind, 'allowed'); // A's read_block replaces its block for reads
  assert.equal(decide('/b/private/p', policy, 'read').kind, 'denied'); // B has no read list: its block holds for reads
  assert.equal(decide('/b/private/p', policy, 'write').kind, 'denied');
  assert.equal(decide('/b/secrets/k', policy, 'read').kind, 'allowed');
  assert.equal(combineRootLists([b]), b);
  assert.equal(combineRootLists([b, b]).readBlock, undefined);
});
