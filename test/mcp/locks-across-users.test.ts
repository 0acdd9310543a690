// The lock is a property of the file: a `hashline mcp` waits for a lock held by a process of
// another user (nobody) on the same tree, then writes; nothing of the lock is left behind.

import assert from 'node:assert/strict';
import { chmodSync, existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { asNobody } from '../helpers/as-nobody.js';
import { skipOrFail } from '../helpers/needs.js';
import { holdInChild, lockOf } from '../helpers/locks.js';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('fs_write waits for the lock another user\'s process holds on the file, then writes', async (t) => {
  const nobody = asNobody();
  if ('why' in nobody) return skipOrFail(t, nobody.why);
  const sb = await makeSandbox({ 'shared.txt': 'before\n' });
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    chmodSync(sb.base, 0o755);
    chmodSync(sb.root, 0o777);
    const target = path.join(sb.root, 'shared.txt');
    const holder = holdInChild(target, `{ root: ${JSON.stringify(sb.root)} }`, nobody);
    await holder.held;
    assert.equal((await fsp.stat(lockOf(target))).uid, 65534, 'nobody holds the lock file beside the file');
    let settled = false;
    const write = mcp.call('fs_write', { targets: [{ path: 'shared.txt', text: 'after\n' }] }).finally(() => (settled = true));
    // a round trip that writes another file completes meanwhile: the server is not stuck, only that file waits
    const other = await mcp.call('fs_write', { targets: [{ path: 'other.txt', text: 'x\n' }] });
    assert.doesNotMatch(textOf(other), /warning/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(settled, false, 'the write did not go through while another user held the lock');
    assert.equal(await fsp.readFile(target, 'utf8'), 'before\n');
    holder.release();
    assert.equal(await holder.exited, 0);
    const done = await write;
    assert.doesNotMatch(textOf(done), /warning/, textOf(done));
    assert.equal(await fsp.readFile(target, 'utf8'), 'after\n');
    assert.equal(existsSync(lockOf(target)), false);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
