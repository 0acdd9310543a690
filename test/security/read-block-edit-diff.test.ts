// Attack: fs_edit on a file the read policy refuses (`--read-block secrets`), to read it back from
// the edit's diff. The tag an edit needs is a 16-bit hash (guessable), and a file too large for the
// history is edited on its live tag alone. The edit is refused: nothing changes on disk, and no
// reply carries the blocked content.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readBlocked } from '../../src/core/messages/edit.js';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

// over 512 KiB: too large for the history, so a matching live tag is enough for a direct edit
const SECRET = `API_KEY=hunter2-top-secret\n${'PRIVATE KEY MATERIAL hunter2\n'.repeat(20_000)}`;

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox({ 'secrets/key': SECRET, 'a.txt': 'a\n' });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('the read policy holds: fs_read of secrets/key is refused', async () => {
  const r = await mcp.call('fs_read', { targets: [{ path: 'secrets/key' }] });
  assert.doesNotMatch(JSON.stringify(r), /hunter2/);
});

test('fs_edit with the right tag (guessed or computed) is refused, shows nothing and changes nothing', async () => {
  const snap = await snapshotTree(sb.base);
  const tag = computeTag(SECRET);
  for (const ops of ['insert after 1:\n+x', 'replace 2:\n+x', 'delete 1', 'insert tail:\n+x']) {
    const r = await mcp.call('fs_edit', { targets: [{ path: 'secrets/key', file_hash: tag, ops }] });
    assert.doesNotMatch(JSON.stringify(r), /hunter2/, ops);
    assert.equal(r.isError, true, ops);
    assert.equal((r.structuredContent as { code: string }).code, 'path_blocked');
    assert.match((r.structuredContent as { cause: string }).cause, new RegExp(readBlocked('secrets/key').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('in a batch, the refused file stops the batch after the earlier targets, with no content', async () => {
  const r = await mcp.call('fs_read', { targets: [{ path: 'a.txt' }] });
  const tag = (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  const out = await mcp.call('fs_edit', {
    targets: [
      { path: 'a.txt', file_hash: tag, ops: 'replace 1:\n+b' },
      { path: 'secrets/key', file_hash: computeTag(SECRET), ops: 'insert after 1:\n+x' },
    ],
  });
  assert.equal(out.isError, true);
  assert.doesNotMatch(JSON.stringify(out), /hunter2/);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'b\n');
  assert.equal(await fsp.readFile(path.join(sb.root, 'secrets/key'), 'utf8'), SECRET);
});
