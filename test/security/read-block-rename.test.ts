// Attack: laundering a read-blocked file through a rename. The write policy admits both names, but
// moving the file to a name the read policy admits would make its content readable (fs_read,
// file_read): refused, unless the destination is read-blocked too.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runTool } from '../../src/mcp/server.js';
import { fileRenameTool } from '../../src/tools/boundary/file-rename.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { callContext, engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree } from '../helpers/tmp-tree.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('a read-blocked file is never renamed to a readable name; to another read-blocked name it may move', async () => {
  const sb = await makeSandbox({ 'secrets/key.txt': 'KEY\n', 'public/readme.txt': 'hi\n' });
  try {
    const engine = await engineFor(sb.root, { readBlock: [path.join(sb.root, 'secrets'), path.join(sb.root, 'vault')] });
    const rename = async (destination: string) => {
      const r = await runTool(engine, fileRenameTool as unknown as ToolDefinition, { files: { 'secrets/key.txt': { destination, expectedSha256: sha('KEY\n') } } }, callContext());
      return r.structuredContent as { ok: boolean; error?: { code: string; message: string } };
    };
    const snap = await snapshotTree(sb.root);
    for (const destination of ['public/key.txt', 'key.txt', 'secrets-copy/key.txt']) {
      const env = await rename(destination);
      assert.equal(env.error?.code, 'path_denied', destination);
      assert.doesNotMatch(JSON.stringify(env), /KEY\\n/);
    }
    assert.deepEqual(await snapshotTree(sb.root), snap);
    assert.equal((await rename('vault/key.txt')).ok, true);
    assert.equal(await fsp.readFile(path.join(sb.root, 'vault/key.txt'), 'utf8'), 'KEY\n');
  } finally {
    await sb.cleanup();
  }
});
