// Attack: a symbolic link inside the root that points at a file outside (CVE-2025-53109), through
// relative and absolute targets, chains of links, and dangling links (writing through one would
// create a file outside).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'real.txt': 'real\n', 'blocked/key.txt': 'KEY\n' });
  const l = (target: string, name: string) => fsp.symlink(target, path.join(sb.root, name));
  await l(path.join(sb.outside, 'secret.txt'), 'abs-link.txt');
  await l('../outside/secret.txt', 'rel-link.txt');
  await l('rel-link.txt', 'chain1.txt');
  await l('chain1.txt', 'chain2.txt');
  await l('/etc/passwd', 'passwd');
  await l(path.join(sb.outside, 'new.txt'), 'dangling-abs.txt');
  await l('../outside/also-new.txt', 'dangling-rel.txt');
  await l('blocked/key.txt', 'to-blocked.txt');
  await l('real.txt', 'inbound.txt');
  await l('loop-b', 'loop-a');
  await l('loop-a', 'loop-b');
});
after(() => sb.cleanup());

test('links to files outside are refused for read and write; nothing outside changes or appears', async () => {
  const engine = await engineFor(sb.root, { block: ['blocked'] });
  const snap = await snapshotTree(sb.base);
  for (const p of ['abs-link.txt', 'rel-link.txt', 'chain1.txt', 'chain2.txt', 'passwd', 'dangling-abs.txt', 'dangling-rel.txt']) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'symlink_escape', `read ${p}`);
    assert.equal(r.write, 'symlink_escape', `write ${p}`);
    assert.equal(r.readText, undefined);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('a link inside the root to a block-listed file is refused', async () => {
  const engine = await engineFor(sb.root, { block: ['blocked'] });
  const r = await attack(engine, 'to-blocked.txt');
  assert.equal(r.read, 'path_blocked');
  assert.equal(r.write, 'path_blocked');
  assert.equal(await fsp.readFile(path.join(sb.root, 'blocked/key.txt'), 'utf8'), 'KEY\n');
});

test('a link loop is refused with a coded error, not a hang', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, 'loop-a');
  assert.equal(r.read, 'symlink_escape');
  assert.equal(r.write, 'symlink_escape');
});

test('an in-bounds link: writing through it updates its target and keeps the link', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, 'inbound.txt');
  assert.equal(r.read, 'ok');
  assert.equal(r.readText, 'real\n');
  assert.equal(r.write, 'ok');
  assert.equal((await fsp.lstat(path.join(sb.root, 'inbound.txt'))).isSymbolicLink(), true);
  assert.equal(await fsp.readFile(path.join(sb.root, 'real.txt'), 'utf8'), 'PWNED-BY-ATTACK');
});
