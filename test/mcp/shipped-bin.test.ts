// The bin that package.json ships (bundled by `prepare`) serves MCP like the sources do.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('the shipped bin answers tools/list and runs a read with a grammar', async () => {
  const bin = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: { hashline: string } }).bin.hashline;
  const abs = path.join(REPO, bin);
  assert.ok(existsSync(abs), `${bin} is missing: run \`npm run build\` (npm install runs it through prepare)`);
  const sb = await makeSandbox({ 'm.py': 'def alpha():\n    return 1\n' });
  const client = new Client({ name: 'bin-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [abs, 'mcp', '--root', sb.root], stderr: 'ignore' }));
  try {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    for (const n of ['file_hash', 'fs_ast_edit', 'fs_edit', 'fs_read', 'fs_rollback', 'fs_write']) assert.ok(names.includes(n), n);
    const r = await client.callTool({ name: 'fs_read', arguments: { targets: [{ path: 'm.py', symbol: 'alpha' }] } });
    const c = r.content as Array<{ type: string; text: string }>;
    assert.match(c[0]!.text, /¶m\.py#[0-9A-F]{4}\n1\| def alpha\(\):\n2\|     return 1/);
  } finally {
    await client.close();
    await sb.cleanup();
  }
});
