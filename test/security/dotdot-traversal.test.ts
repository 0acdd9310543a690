// Attack: `..` chains that climb out of the root, lexically.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack, MARKER } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'a/b/c/file.txt': 'deep\n' });
});
after(() => sb.cleanup());

const CASES = [
  '../outside/secret.txt',
  './../outside/secret.txt',
  'a/../../outside/secret.txt',
  'a/b/c/../../../../outside/secret.txt',
  'a/b/../../../outside/new.txt',
  '././././../outside/secret.txt',
  '../../../../../../../../etc/passwd',
  'a/./b/./../../../outside/secret.txt',
  '../outside/../outside/secret.txt',
  'a//..//..//outside//secret.txt',
  '../root/../outside/secret.txt',
];

test('`..` chains out of the root are refused; nothing outside changes', async () => {
  const engine = await engineFor(sb.root);
  const snap = await snapshotTree(sb.base);
  for (const p of CASES) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'path_outside_root', `read ${p}`);
    assert.equal(r.write, 'path_outside_root', `write ${p}`);
    assert.equal(r.readText, undefined);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('`..` that stays inside the root is fine, and a `..` at the root cannot climb above it', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, 'a/b/c/../c/file.txt');
  assert.equal(r.read, 'ok');
  assert.equal(r.readText, 'deep\n');
  // Percent-encoded dots are a literal name inside the root, not a traversal.
  const enc = await attack(engine, '%2e%2e/outside/secret.txt');
  assert.notEqual(enc.read, 'ok');
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  assert.ok(!(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8')).includes(MARKER));
});
