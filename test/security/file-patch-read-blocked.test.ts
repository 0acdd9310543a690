// Attack: use file_patch as an oracle on a file the read policy refuses (a patch reports what it
// matched: diffs, candidate lines, the closest region). The file is refused before it is read;
// no reply carries any of its content, and it is not changed.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fails, sha256 } from '../helpers/boundary.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('file_patch on a read-blocked file is refused without a byte of its content in the reply', async () => {
  const secret = 'API_KEY=sk-live-0123456789abcdef\n';
  const sb = await makeSandbox({ 'private/keys.env': secret });
  const mcp = await connectMcp(['--root', sb.root, '--read-block', path.join(sb.root, 'private')]);
  try {
    for (const search of ['API_KEY=sk-live-0123456789abcdeX', 'API_KEY', '']) {
      for (const preview of [true, false]) {
        const e = await fails(mcp, 'file_patch', { files: { 'private/keys.env': { patchStrategy: 'aider_block', preview, expectedSha256: sha256(secret), aiderBlocks: [{ search, replace: 'x' }] } } });
        assert.equal(e.code, 'path_denied');
        assert.doesNotMatch(JSON.stringify(e), /sk-live|0123456789/);
      }
    }
    assert.equal(await fsp.readFile(path.join(sb.root, 'private/keys.env'), 'utf8'), secret);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
