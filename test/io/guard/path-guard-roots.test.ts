// A guard over several roots (an MCP client's roots): relative paths resolve in the first, absolute
// paths inside any root are admitted, a path in none is refused, and a link from one root to a
// place outside every root is refused as an escape.

import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PathGuard } from '../../../src/io/guard/path-guard.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('several roots: first for relative paths, any for absolute ones, none other', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const second = path.join(sb.base, 'second');
  mkdirSync(second);
  writeFileSync(path.join(second, 'b.txt'), 'b\n');
  symlinkSync(path.join(sb.outside, 'secret.txt'), path.join(second, 'leak'));
  try {
    const guard = await PathGuard.create({ root: sb.root, roots: [second] });
    assert.deepEqual(guard.roots, [sb.root, second]);
    assert.equal((await guard.resolve('a.txt', 'read')).real, path.join(sb.root, 'a.txt'));
    const b = await guard.resolve(path.join(second, 'b.txt'), 'write');
    assert.equal(b.real, path.join(second, 'b.txt'));
    assert.equal(b.display, path.join(second, 'b.txt'));
    assert.equal(guard.realRootOf(b.real), second);
    assert.equal((await guard.resolve('b.txt', 'read')).exists, false, 'relative paths resolve in the first root only');
    await assert.rejects(guard.resolve(path.join(sb.outside, 'secret.txt'), 'read'), { code: 'path_outside_root' });
    await assert.rejects(guard.resolve(path.join(second, 'leak'), 'read'), { code: 'symlink_escape' });
    await assert.rejects(guard.resolve(`${second}2/x`, 'read'), { code: 'path_outside_root' });
    await assert.rejects(PathGuard.create({ root: sb.root, roots: [path.join(sb.base, 'missing')] }), { code: 'not_found' });
  } finally {
    await sb.cleanup();
  }
});
