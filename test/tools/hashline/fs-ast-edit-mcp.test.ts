// fs_ast_edit end to end: the official SDK client calls a spawned `hashline mcp` over stdio.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({ 'src/a.ts': 'const é = 1;\nconsole.log(é);\n', 'src/b.py': 'print(1)\n' });
  await fsp.symlink(sb.outside, path.join(sb.root, 'src/out'));
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

test('fs_ast_edit over MCP: rewrites, returns the seed shape, and reports a coded error', async () => {
  const outside = await snapshotTree(sb.outside);
  const res = await mcp.call('fs_ast_edit', { ops: [{ pat: 'console.log($A)', out: 'logger.debug($A)' }], paths: ['src/**/*.ts'] });
  assert.equal(res.isError, undefined);
  const sc = res.structuredContent as { results: Array<{ path: string; header: string; first_changed_line?: number; warnings: string[]; diff?: string }> };
  assert.equal(sc.results.length, 1);
  assert.equal(sc.results[0]!.path, 'src/a.ts');
  assert.equal(sc.results[0]!.first_changed_line, 2);
  assert.match(textOf(res), /^¶src\/a\.ts#[0-9A-F]{4}/);
  assert.equal(await fsp.readFile(path.join(sb.root, 'src/a.ts'), 'utf8'), 'const é = 1;\nlogger.debug(é);\n');
  assert.deepEqual(await snapshotTree(sb.outside), outside);

  const bad = await mcp.call('fs_ast_edit', { ops: [], paths: ['src'] });
  assert.equal(bad.isError, true);
  assert.equal((bad.structuredContent as { error: { code: string } }).error.code, 'invalid_arguments');

  const denied = await mcp.call('fs_ast_edit', { ops: [{ pat: 'print($A)', out: 'log($A)' }], paths: ['../outside'] });
  assert.equal(denied.isError, true);
  assert.equal((denied.structuredContent as { error: { code: string } }).error.code, 'path_outside_root');
});
