// Attack: reaching a block-listed subtree by other spellings, through links, or by putting a path
// in both lists; and the separate read scope.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'secrets/key.pem': 'KEY\n', 'secrets2/ok.txt': 'ok\n', 'src/a.ts': 'a\n', 'docs/x.md': 'x\n' });
  await fsp.symlink('secrets', path.join(sb.root, 'alias'));
  await fsp.symlink('secrets/key.pem', path.join(sb.root, 'key-link'));
});
after(() => sb.cleanup());

test('block-listed paths are refused under every spelling and through links', async () => {
  const engine = await engineFor(sb.root, { block: ['secrets'] });
  const snap = await snapshotTree(sb.base);
  for (const p of ['secrets/key.pem', './secrets/key.pem', 'src/../secrets/key.pem', path.join(sb.root, 'secrets/key.pem'), 'secrets', 'secrets/new.txt', 'alias/key.pem', 'key-link']) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'path_blocked', `read ${p}`);
    assert.equal(r.write, 'path_blocked', `write ${p}`);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('blocking is by whole components: blocking secrets does not block secrets2', async () => {
  const engine = await engineFor(sb.root, { block: ['secrets'] });
  const r = await attack(engine, 'secrets2/ok.txt');
  assert.equal(r.read, 'ok');
});

test('a path in both the block list and the allow list is a Security Alert', async () => {
  const engine = await engineFor(sb.root, { block: ['secrets'], allow: [path.join(sb.root, 'secrets/key.pem')] });
  const r = await attack(engine, 'secrets/key.pem');
  assert.equal(r.read, 'path_conflict');
  assert.equal(r.write, 'path_conflict');
  await assert.rejects(engine.guard.resolve('secrets/key.pem', 'write'), /Security Alert: path is in both blocklist and allowlist\./);
});

test('the allow list admits exactly the listed outside path and nothing beside it', async () => {
  const allowed = path.join(sb.outside, 'secret.txt');
  const engine = await engineFor(sb.root, { allow: [allowed] });
  const r = await attack(engine, allowed);
  assert.equal(r.read, 'ok');
  const sibling = await attack(engine, path.join(sb.outside, 'other.txt'));
  assert.equal(sibling.read, 'path_outside_root');
  assert.equal(sibling.write, 'path_outside_root');
});

test('a read scope replaces the lists for reads only', async () => {
  const engine = await engineFor(sb.root, { readBlock: ['docs'] });
  const r = await attack(engine, 'docs/x.md');
  assert.equal(r.read, 'path_blocked');
  assert.equal(r.write, 'ok');
});
