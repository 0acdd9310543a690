// Attack: a sibling directory whose name starts with the root's name (CVE-2025-53110 was a bare
// startsWith). Root /x/root must not admit /x/root2, /x/root_backup, /x/root.bak ...

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
const SIBLINGS = ['root2', 'root_backup', 'root.bak', 'root-old', 'root ', 'rootx'];

before(async () => {
  sb = await makeSandbox({ 'inside.txt': 'inside\n' });
  for (const s of SIBLINGS) {
    await fsp.mkdir(path.join(sb.base, s));
    await fsp.writeFile(path.join(sb.base, s, 'secret.txt'), 'TOP SECRET\n');
  }
});
after(() => sb.cleanup());

const cases = (base: string, root: string) => [
  ...SIBLINGS.map((s) => path.join(base, s, 'secret.txt')),
  ...SIBLINGS.map((s) => `../${s}/secret.txt`),
  `${root}2/new.txt`,
  `${root}/../root2/secret.txt`,
];

test('prefix siblings of the root are refused for read and write; nothing outside changes', async () => {
  const engine = await engineFor(sb.root);
  const beforeSnap = await snapshotTree(sb.base);
  const list = cases(sb.base, sb.root);
  assert.ok(list.length >= 14);
  for (const p of list) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'path_outside_root', `read ${p}`);
    assert.equal(r.write, 'path_outside_root', `write ${p}`);
  }
  const afterSnap = await snapshotTree(sb.base);
  assert.deepEqual(afterSnap, beforeSnap);
});

test('the root itself still works (the guard is not simply refusing everything)', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, 'inside.txt');
  assert.equal(r.read, 'ok');
  assert.equal(r.readText, 'inside\n');
  assert.equal(r.write, 'ok');
});
