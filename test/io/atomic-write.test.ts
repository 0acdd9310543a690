import assert from 'node:assert/strict';
import { closeSync, openSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { toHashlineError } from '../../src/core/errors/errors.js';
import { TEMP_MARKER } from '../../src/core/own-names.js';
import { writeAtomic } from '../../src/io/atomic-write.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'run.sh': '#!/bin/sh\necho hi\n', 'data.txt': 'old\n' });
  await fsp.chmod(path.join(sb.root, 'run.sh'), 0o750);
});
after(() => sb.cleanup());

const enc = (s: string) => new TextEncoder().encode(s);
const temps = async (dir: string) => (await fsp.readdir(dir)).filter((n) => n.includes(TEMP_MARKER));

test('replacing a file keeps its mode and inode changes (rename), content is complete', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('run.sh', 'write');
  const before = await fsp.stat(path.join(sb.root, 'run.sh'));
  const r = await writeAtomic(engine.guard, rp, enc('#!/bin/sh\necho bye\n'));
  const st = await fsp.stat(path.join(sb.root, 'run.sh'));
  assert.equal(st.mode & 0o7777, 0o750);
  assert.equal(r.created, false);
  assert.notEqual(st.ino, before.ino);
  assert.equal(await fsp.readFile(path.join(sb.root, 'run.sh'), 'utf8'), '#!/bin/sh\necho bye\n');
  assert.deepEqual(await temps(sb.root), []);
});

test('a new file gets 0666 less the umask; a missing parent is refused without createParents', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('fresh.txt', 'write');
  const r = await writeAtomic(engine.guard, rp, enc('x'));
  assert.equal(r.created, true);
  assert.equal((await fsp.stat(path.join(sb.root, 'fresh.txt'))).mode & 0o777, 0o666 & ~process.umask());
  const deep = await engine.guard.resolve('no/such/dir/f.txt', 'write');
  await assert.rejects(writeAtomic(engine.guard, deep, enc('x')), (e) => toHashlineError(e).code === 'not_found');
});

test('a failing stream leaves the old content and no temporary file', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('data.txt', 'write');
  async function* broken() {
    yield enc('partial');
    throw new Error('client went away');
  }
  await assert.rejects(writeAtomic(engine.guard, rp, broken()), (e) => toHashlineError(e).code === 'io_error');
  assert.equal(await fsp.readFile(path.join(sb.root, 'data.txt'), 'utf8'), 'old\n');
  assert.deepEqual(await temps(sb.root), []);
});

test('an aborted write leaves the old content and no temporary file', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('data.txt', 'write');
  const ac = new AbortController();
  async function* slow() {
    yield enc('a');
    ac.abort();
    yield enc('b');
  }
  await assert.rejects(writeAtomic(engine.guard, rp, slow(), { signal: ac.signal }), (e) => toHashlineError(e).code === 'aborted');
  assert.equal(await fsp.readFile(path.join(sb.root, 'data.txt'), 'utf8'), 'old\n');
  assert.deepEqual(await temps(sb.root), []);
});

test('exclusive creation refuses an existing file', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('data.txt', 'write');
  await assert.rejects(writeAtomic(engine.guard, rp, enc('x'), { exclusive: true }), /already exists/);
  const rp2 = await engine.guard.resolve('brand-new.txt', 'write');
  await writeAtomic(engine.guard, rp2, enc('new'), { exclusive: true });
  assert.equal(await fsp.readFile(path.join(sb.root, 'brand-new.txt'), 'utf8'), 'new');
  assert.deepEqual(await temps(sb.root), []);
});

test('a directory in the way is a coded error', async () => {
  await fsp.mkdir(path.join(sb.root, 'adir'));
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('adir', 'write');
  await assert.rejects(writeAtomic(engine.guard, rp, enc('x')), (e) => toHashlineError(e).code === 'is_directory');
});

test('with its parent given, a target the caller already looked at is judged from that look, not looked at again', async () => {
  const engine = await engineFor(sb.root);
  await fsp.writeFile(path.join(sb.root, 'seen.txt'), 'old\n');
  await fsp.symlink('data.txt', path.join(sb.root, 'seen-link'));
  const rp = await engine.guard.resolve('seen.txt', 'write');
  const dirFd = openSync(sb.root, 'r');
  try {
    const parent = { fd: dirFd, prefix: `/proc/self/fd/${dirFd}` };
    // the caller's look found nothing there: the write counts as a creation (its own lstat would have found the file)
    const r = await writeAtomic(engine.guard, rp, enc('new\n'), { parent, inspected: null });
    assert.equal(r.created, true);
    assert.equal(await fsp.readFile(path.join(sb.root, 'seen.txt'), 'utf8'), 'new\n');
    // a look that found a link is refused as the check's own would refuse it
    const linkStat = await fsp.lstat(path.join(sb.root, 'seen-link'));
    const lrp = await engine.guard.resolve('seen.txt', 'write');
    await assert.rejects(writeAtomic(engine.guard, lrp, enc('x'), { parent, inspected: linkStat }), (e) => toHashlineError(e).code === 'link_swapped');
    assert.equal(await fsp.readFile(path.join(sb.root, 'seen.txt'), 'utf8'), 'new\n');
    // without a parent given, the look is ignored and the target looked at again
    const again = await writeAtomic(engine.guard, rp, enc('newer\n'), { inspected: null });
    assert.equal(again.created, false);
    assert.deepEqual(await temps(sb.root), []);
  } finally {
    await fsp.rm(path.join(sb.root, 'seen-link'));
    closeSync(dirFd);
  }
});
