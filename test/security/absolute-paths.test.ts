// Attack: absolute paths outside the root, including /proc paths that alias other trees.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'in.txt': 'in\n' });
});
after(() => sb.cleanup());

test('absolute paths outside the root are refused; nothing outside changes', async () => {
  const engine = await engineFor(sb.root);
  const cases = [
    '/etc/passwd',
    '/etc/shadow',
    '/',
    '//etc//passwd',
    path.join(sb.outside, 'secret.txt'),
    path.join(sb.outside, 'new.txt'),
    '/proc/self/environ',
    '/proc/self/root/etc/passwd',
    `/proc/self/cwd/../outside/secret.txt`,
    '/dev/zero',
    sb.base,
  ];
  const snap = await snapshotTree(sb.base);
  for (const p of cases) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'path_outside_root', `read ${p}`);
    assert.equal(r.write, 'path_outside_root', `write ${p}`);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('an absolute path inside the root is accepted', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, path.join(sb.root, 'in.txt'));
  assert.equal(r.read, 'ok');
  assert.equal(r.readText, 'in\n');
});
