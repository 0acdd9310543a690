// Where a lock lives, and two writers that see its place differently (one creating the missing
// directories) still exclude each other.

import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { HashlineError } from '../../../src/core/errors/errors.js';
import { lockNameFor } from '../../../src/core/lock-names.js';
import { LockManager } from '../../../src/io/locks/file-lock.js';
import { lockPlace } from '../../../src/io/locks/lock-place.js';
import { lockOf, tempDir } from '../../helpers/locks.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir('hl-lock-place-');
  dirs.push(d);
  return d;
}

test('the place: beside the file when its parent exists; else the nearest existing ancestor, under a hashed name', async () => {
  const root = dir();
  await fsp.mkdir(path.join(root, 'a/b'), { recursive: true });
  const beside = lockPlace(path.join(root, 'a/b/f.txt'), root);
  assert.equal(beside.file, path.join(root, 'a/b/.f.txt.hashline.lock'));
  assert.equal(beside.probe, undefined);
  // where a writer creating a/b would have locked the same file
  assert.deepEqual(beside.above, [path.join(root, 'a', lockNameFor('b/f.txt')), path.join(root, lockNameFor('a/b/f.txt'))]);
  const missing = lockPlace(path.join(root, 'a/new/deeper/f.txt'), root);
  assert.equal(missing.dir, path.join(root, 'a'));
  assert.equal(missing.file, path.join(root, 'a', lockNameFor('new/deeper/f.txt')));
  assert.equal(missing.probe, path.join(root, 'a/new'));
  assert.deepEqual(missing.above, [path.join(root, lockNameFor('a/new/deeper/f.txt'))]);
  // the root bounds the search; a path outside it is searched up to /
  assert.deepEqual(lockPlace(path.join(root, 'top.txt'), root).above, []);
  assert.equal(lockPlace(path.join(root, 'top.txt')).above.length, root.split('/').length - 1);
});

test('a long name is locked under a hashed name in its parent', async () => {
  const root = dir();
  const long = path.join(root, 'n'.repeat(200));
  const locks = new LockManager({ root });
  await locks.withLocks([long], async () => {
    assert.deepEqual(await fsp.readdir(root), [lockNameFor('n'.repeat(200))]);
  });
  assert.deepEqual(await fsp.readdir(root), []);
});

test('a writer creating missing directories holds its lock in the ancestor; a writer that finds them made waits for it', async () => {
  const root = dir();
  const target = path.join(root, 'new/sub/f.txt');
  const creator = new LockManager({ root });
  const other = new LockManager({ root });
  await creator.withLocks([target], async () => {
    assert.ok(existsSync(path.join(root, lockNameFor('new/sub/f.txt'))), 'the lock is in the root');
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.writeFile(target, 'made\n');
    // the place of a new lock on the file is now its parent: the other writer must still wait
    await assert.rejects(other.withLocks([target], async () => undefined, { timeoutMs: 200 }), (e: HashlineError) => e.code === 'lock_timeout');
    assert.equal(existsSync(lockOf(target)), false, 'the waiter removed the lock it made beside the file');
  });
  let held = false;
  await other.withLocks([target], async () => {
    held = existsSync(lockOf(target));
  });
  assert.ok(held, 'once released, the lock is taken beside the file');
  assert.deepEqual((await fsp.readdir(root)).sort(), ['new']);
  assert.deepEqual(await fsp.readdir(path.dirname(target)), ['f.txt']);
});
