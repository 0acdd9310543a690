// openVerifiedSync (the synchronous verified open of small files' reads) against openVerified: the
// same refusals with the same codes (a final link, a directory, a fifo, a missing file), the same
// facts of a regular file; readVerifiedSmall reads what readVerified reads, and leaves a larger file to it.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openVerified, openVerifiedSync, readVerified } from '../../../src/io/guard/open-verified.js';
import { readVerifiedSmall } from '../../../src/io/read/read-verified-sync.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const codeOf = async (f: () => unknown): Promise<string> => {
  try {
    await f();
    return 'none';
  } catch (e) {
    return String((e as { code?: unknown }).code);
  }
};

test('openVerifiedSync refuses what openVerified refuses, with the same codes', async () => {
  const sb = await makeSandbox({ 'a.txt': 'A\n', 'dir/x.txt': 'x' });
  try {
    await fsp.symlink(path.join(sb.root, 'a.txt'), path.join(sb.root, 'link.txt'));
    execFileSync('mkfifo', [path.join(sb.root, 'pipe')]);
    const engine = await engineFor(sb.root);
    const cases: Array<[string, string]> = [['dir', 'is_directory'], ['pipe', 'not_regular_file'], ['gone.txt', 'not_found']];
    for (const [name, code] of cases) {
      const rp = await engine.guard.resolve(name, 'read');
      assert.equal(await codeOf(() => openVerified(engine.guard, rp, 'read')), code, name);
      assert.equal(await codeOf(() => openVerifiedSync(engine.guard, rp, 'read')), code, name);
    }
    // a final link put in place after the guard resolved the name: opened without following it
    const rp = await engine.guard.resolve('a.txt', 'read');
    await fsp.rename(path.join(sb.root, 'a.txt'), path.join(sb.root, 'b.txt'));
    await fsp.symlink(path.join(sb.root, 'b.txt'), path.join(sb.root, 'a.txt'));
    assert.equal(await codeOf(() => openVerified(engine.guard, rp, 'read')), 'link_swapped');
    assert.equal(await codeOf(() => openVerifiedSync(engine.guard, rp, 'read')), 'link_swapped');
  } finally {
    await sb.cleanup();
  }
});

test('openVerifiedSync gives a regular file the facts openVerified gives; readVerifiedSmall its bytes, up to its limit', async () => {
  const sb = await makeSandbox({ 'a.txt': 'Ωmega\n' });
  try {
    const engine = await engineFor(sb.root);
    const rp = await engine.guard.resolve('a.txt', 'read');
    const vh = await openVerified(engine.guard, rp, 'read');
    await vh.handle.close();
    const vf = openVerifiedSync(engine.guard, rp, 'read');
    closeSync(vf.fd);
    const { handle: _h, ...asyncFacts } = vh;
    const { fd: _fd, ...syncFacts } = vf;
    assert.deepEqual(syncFacts, asyncFacts);
    const whole = await readVerified(engine.guard, rp, 'read');
    assert.deepEqual(readVerifiedSmall(engine.guard, rp, 'read', 1024), whole);
    assert.equal(readVerifiedSmall(engine.guard, rp, 'read', 3), null);
  } finally {
    await sb.cleanup();
  }
});
