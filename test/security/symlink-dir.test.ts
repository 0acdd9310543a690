// Attack: a directory link inside the root that leads outside: reading through it, creating a new
// file through it, and a deep new path under it whose parents do not exist yet.

import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { writeAtomic } from '../../src/io/atomic-write.js';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'sub/in.txt': 'in\n' });
  await fsp.symlink(sb.outside, path.join(sb.root, 'out-dir'));
  await fsp.symlink('../outside', path.join(sb.root, 'out-rel'));
  await fsp.symlink('/', path.join(sb.root, 'slash'));
  await fsp.symlink('..', path.join(sb.root, 'up'));
  await fsp.symlink('../../out-dir', path.join(sb.root, 'sub/deep-up'));
  await fsp.symlink(path.join(sb.outside, 'not-yet'), path.join(sb.root, 'dangling-dir'));
});
after(() => sb.cleanup());

const CASES = [
  'out-dir/secret.txt',
  'out-dir/new.txt',
  'out-dir/a/b/c/new.txt',
  'out-rel/secret.txt',
  'out-rel/new.txt',
  'slash/etc/passwd',
  'up/outside/secret.txt',
  'up/outside/new.txt',
  'up/root/../outside/secret.txt',
  'sub/deep-up/secret.txt',
  'dangling-dir/new.txt',
  'dangling-dir/x/y/new.txt',
];

test('paths through directory links that lead outside are refused; nothing outside changes', async () => {
  const engine = await engineFor(sb.root);
  const snap = await snapshotTree(sb.base);
  for (const p of CASES) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'symlink_escape', `read ${p}`);
    assert.equal(r.write, 'symlink_escape', `write ${p}`);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('creating parents under a link to outside is refused before any directory is made', async () => {
  const engine = await engineFor(sb.root);
  await assert.rejects(
    async () => {
      const rp = await engine.guard.resolve('out-dir/p/q/new.txt', 'write');
      await writeAtomic(engine.guard, rp, new Uint8Array([1]), { createParents: true });
    },
    (e: { code?: string }) => e.code === 'symlink_escape',
  );
  assert.equal(existsSync(path.join(sb.outside, 'p')), false);
});

test('a new nested file under the root with createParents works and stays inside', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('sub/new/deeper/file.txt', 'write');
  await writeAtomic(engine.guard, rp, new TextEncoder().encode('ok'), { createParents: true });
  assert.equal(await fsp.readFile(path.join(sb.root, 'sub/new/deeper/file.txt'), 'utf8'), 'ok');
});
