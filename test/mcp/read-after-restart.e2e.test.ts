// A text read over MCP (whose sighting commits right after the reply) is in the durable history
// after the server stops: a new server merges an edit made with the read's tag against it, after
// the file changed on disk meanwhile.

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const FILE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

test('a read text survives a restart and merges a stale edit in the next server', async () => {
  const sb = await makeSandbox({ 'a.txt': FILE });
  try {
    const first = await connectMcp(['--root', sb.root]);
    let tag: string;
    try {
      const r = await first.call('fs_read', { targets: [{ path: 'a.txt' }] });
      assert.equal(r.isError, undefined, textOf(r));
      tag = (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
    } finally {
      await first.close();
    }
    // someone else changes the file: the tag is stale now
    writeFileSync(path.join(sb.root, 'a.txt'), FILE.replace('line 3\n', 'line three\n'));
    const second = await connectMcp(['--root', sb.root]);
    try {
      const e = await second.call('fs_edit', { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 25:\n+line twenty-five' }] });
      assert.equal(e.isError, undefined, textOf(e));
      const warnings = (e.structuredContent as { results: Array<{ warnings: string[] }> }).results[0]!.warnings;
      assert.equal(warnings.length, 1, 'merged against the text read before the restart');
      assert.equal(readFileSync(path.join(sb.root, 'a.txt'), 'utf8'), FILE.replace('line 3\n', 'line three\n').replace('line 25\n', 'line twenty-five\n'));
    } finally {
      await second.close();
    }
  } finally {
    await sb.cleanup();
  }
});
