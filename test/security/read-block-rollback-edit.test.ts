// Attack: with `--read-block secrets`, overwrite secrets/key with fs_write (the history keeps the
// secret as the version before), restore it with fs_rollback (which answers with its tag), then
// fs_edit on that tag to read the secret back from the diff. The write and the restore are writes
// and go through, with replies that carry no tag of the file; the edit is refused and shows nothing.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const SECRET = 'API_KEY=hunter2-top-secret\nDB_PASSWORD=hunter2-db\nTOKEN=hunter2-token\n';

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox({ 'secrets/key': SECRET });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('fs_write, fs_rollback, then fs_edit on the restored tag: no reply carries the secret', async () => {
  const key = path.join(sb.root, 'secrets/key');
  const w = await mcp.call('fs_write', { targets: [{ path: 'secrets/key', text: 'placeholder\n' }] });
  assert.notEqual(w.isError, true, textOf(w));
  assert.doesNotMatch(JSON.stringify(w), /hunter2/);

  const rb = await mcp.call('fs_rollback', { path: 'secrets/key', hash: '' });
  assert.notEqual(rb.isError, true, textOf(rb));
  assert.doesNotMatch(JSON.stringify(rb), /hunter2/);
  // no tag of a read-blocked file is shown (a 4-hex tag of a short secret gives it away)
  assert.equal((rb.structuredContent as { file_hash: string }).file_hash, '');
  assert.ok(!JSON.stringify(rb).includes(computeTag(SECRET)));
  const restored = computeTag(SECRET);
  assert.equal(await fsp.readFile(key, 'utf8'), SECRET);

  for (const ops of ['insert after 1:\n+x', 'replace 2:\n+x', 'insert head:\n+x']) {
    const e = await mcp.call('fs_edit', { targets: [{ path: 'secrets/key', file_hash: restored, ops }] });
    assert.doesNotMatch(JSON.stringify(e), /hunter2/, ops);
    assert.equal(e.isError, true, ops);
    assert.equal((e.structuredContent as { code: string }).code, 'path_blocked');
  }
  assert.equal(await fsp.readFile(key, 'utf8'), SECRET);
});
