// The directories of one extraction (src/http/tar/tar-dirs.ts): made and verified once, then held
// open and checked by their descriptor before each use (work counted, not timed); a directory
// moved, removed or swapped for a link after it was verified is looked at again from the root, a
// link there refused; a descriptor in use is never closed under its user.

import assert from 'node:assert/strict';
import { existsSync, fstatSync, promises as fsp, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { toHashlineError } from '../../../src/core/errors/errors.js';
import { ExtractionDirs } from '../../../src/http/tar/tar-dirs.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

async function setup() {
  const sb = await makeSandbox({});
  const engine = await engineFor(sb.root);
  const dest = path.join(sb.root, 'dest');
  await fsp.mkdir(dest);
  return { sb, dirs: new ExtractionDirs(engine.guard, dest), dest };
}

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return toHashlineError(e).code;
  }
  return 'ok';
};

test('a directory is made and verified once; each later use costs one check of its descriptor', async () => {
  const { sb, dirs, dest } = await setup();
  try {
    dirs.ensure('a/b/f', ['a', 'b']);
    assert.equal((await fsp.lstat(path.join(dest, 'a/b'))).isDirectory(), true);
    const first = dirs.calls;
    assert.ok(first >= 5, `the first use looks at every component (${first} checks)`);
    for (let i = 0; i < 100; i++) {
      const d = dirs.acquire(`a/b/f${i}`, ['a', 'b']);
      writeFileSync(`${d.prefix}/f${i}`, 'x');
      dirs.release(d);
    }
    assert.equal(dirs.calls - first, 100, 'one check per use');
    assert.equal(readdirSync(path.join(dest, 'a/b')).length, 100);
  } finally {
    dirs.close();
    await sb.cleanup();
  }
});

test('a verified directory swapped for a link to outside: the next use is refused, nothing lands outside', async () => {
  const { sb, dirs, dest } = await setup();
  try {
    dirs.ensure('d/f', ['d']);
    await fsp.rename(path.join(dest, 'd'), path.join(dest, 'd.real'));
    await fsp.symlink(sb.outside, path.join(dest, 'd'));
    assert.equal(refusal(() => dirs.acquire('d/f', ['d'])), 'tar_member_refused');
    // a directory below the swapped one is refused too (its descriptor sits elsewhere now)
    assert.deepEqual(readdirSync(sb.outside), ['secret.txt']);
  } finally {
    dirs.close();
    await sb.cleanup();
  }
});

test('a parent swapped for a link: a directory held below it is refused', async () => {
  const { sb, dirs, dest } = await setup();
  try {
    dirs.ensure('p/q/f', ['p', 'q']);
    await fsp.mkdir(path.join(sb.outside, 'q'));
    await fsp.rename(path.join(dest, 'p'), path.join(dest, 'p.real'));
    await fsp.symlink(sb.outside, path.join(dest, 'p'));
    assert.equal(refusal(() => dirs.acquire('p/q/f', ['p', 'q'])), 'tar_member_refused');
    assert.deepEqual(readdirSync(path.join(sb.outside, 'q')), []);
  } finally {
    dirs.close();
    await sb.cleanup();
  }
});

test('a verified directory moved outside the root: the next use makes a new one inside, nothing lands outside', async () => {
  const { sb, dirs, dest } = await setup();
  try {
    dirs.ensure('m/f', ['m']);
    await fsp.rename(path.join(dest, 'm'), path.join(sb.outside, 'm'));
    const d = dirs.acquire('m/f', ['m']);
    try {
      writeFileSync(`${d.prefix}/f`, 'inside');
    } finally {
      dirs.release(d);
    }
    assert.equal(await fsp.readFile(path.join(dest, 'm/f'), 'utf8'), 'inside');
    assert.deepEqual(readdirSync(path.join(sb.outside, 'm')), []);
  } finally {
    dirs.close();
    await sb.cleanup();
  }
});

test('a file where a directory goes is refused', async () => {
  const { sb, dirs, dest } = await setup();
  try {
    await fsp.writeFile(path.join(dest, 'plain'), 'x');
    assert.equal(refusal(() => dirs.acquire('plain/f', ['plain'])), 'tar_member_refused');
    assert.equal(existsSync(path.join(dest, 'plain')), true);
  } finally {
    dirs.close();
    await sb.cleanup();
  }
});

test('a descriptor in use stays open when its directory is dropped, and closes with its last user', async () => {
  const { sb, dirs } = await setup();
  try {
    const d = dirs.acquire('x/f', ['x']);
    dirs.invalidate(d.abs);
    dirs.close();
    assert.equal(fstatSync(d.fd).isDirectory(), true, 'still open while in use');
    dirs.release(d);
    assert.throws(() => fstatSync(d.fd), /EBADF/);
  } finally {
    await sb.cleanup();
  }
});
