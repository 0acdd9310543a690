// Attack: with `--read-block secrets`, write secrets/key (the session holds its tag), let the
// secret come back on disk (another process restores it), then fs_edit with the now-stale tag: a
// rejected stale edit shows the current lines around its anchors. The edit is refused before any
// merge, and neither the reply nor the disk changes.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const SECRET = 'API_KEY=hunter2-top-secret\nDB_PASSWORD=hunter2-db\nTOKEN=hunter2-token\nLINE4=hunter2\nLINE5=hunter2\n';

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox({ 'secrets/key': 'old\n' });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('a stale-tag edit of a read-blocked file returns no context lines', async () => {
  const key = path.join(sb.root, 'secrets/key');
  const w = await mcp.call('fs_write', { targets: [{ path: 'secrets/key', text: 'one\ntwo\nthree\nfour\nfive\n' }] });
  assert.notEqual(w.isError, true, textOf(w));
  const tag = (w.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  await fsp.writeFile(key, SECRET);
  for (const ops of ['replace 3:\n+x', 'delete 1..5', 'replace 2..4:\n+x']) {
    const e = await mcp.call('fs_edit', { targets: [{ path: 'secrets/key', file_hash: tag, ops }] });
    assert.doesNotMatch(JSON.stringify(e), /hunter2/, ops);
    assert.equal(e.isError, true, ops);
    assert.equal((e.structuredContent as { code: string }).code, 'path_blocked');
  }
  assert.equal(await fsp.readFile(key, 'utf8'), SECRET);
});
