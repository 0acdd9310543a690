// The boundary family's one rule for symbolic links inside the root, over a real `hashline mcp`:
// every change (file_write, file_patch with and without preview, file_chattr, file_rename,
// file_delete) refuses a path that is itself a link with not_regular_file (reason `symlink`,
// naming the target to use instead), and leaves the link and its target as they were; reads
// (file_hash, file_read) follow it; the target changed by its own path works.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { linkRefused } from '../../../src/core/messages/guard.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
const TEXT = 'export const x = 1;\n';

before(async () => {
  sb = await makeSandbox({ 'docs/target.ts': TEXT });
  await fsp.symlink('docs/target.ts', path.join(sb.root, 'link.ts'));
  mcp = await connectMcp(['--root', sb.root, '--history', 'memory']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('every change of a path that is a link is refused the same way, and nothing changes', async () => {
  const before = await snapshotTree(sb.root);
  const hash = sha256(TEXT);
  const aider = { patchStrategy: 'aider_block', expectedSha256: hash, aiderBlocks: [{ search: 'x = 1', replace: 'x = 2' }] };
  const calls: Array<[string, Record<string, unknown>]> = [
    ['file_write', { files: { 'link.ts': { content: 'y\n', expectedSha256: hash } } }],
    ['file_patch', { files: { 'link.ts': aider } }],
    ['file_patch', { files: { 'link.ts': { ...aider, preview: true } } }],
    ['file_chattr', { files: { 'link.ts': { chattr: { chmod: 0o600 }, expectedSha256: hash } } }],
    ['file_rename', { files: { 'link.ts': { destination: 'moved.ts', expectedSha256: hash } } }],
    ['file_delete', { files: { 'link.ts': { expectedSha256: hash } } }],
  ];
  for (const [tool, args] of calls) {
    const error = await fails(mcp, tool, args);
    assert.equal(error.code, 'not_regular_file', tool);
    assert.equal(error.message, linkRefused('link.ts', 'docs/target.ts'), tool);
    assert.deepEqual(error.details, { filePath: 'link.ts', path: 'link.ts', reason: 'symlink', target: 'docs/target.ts' }, tool);
  }
  assert.deepEqual(await snapshotTree(sb.root), before);
});

test('reads follow the link; the target changed by its own path works', async () => {
  const hashed = await ok<{ files: Array<{ sha256: string }> }>(mcp, 'file_hash', { filePaths: ['link.ts'] });
  assert.equal(hashed.files[0]!.sha256, sha256(TEXT));
  const read = await ok<{ files: Array<{ content: string }> }>(mcp, 'file_read', { files: [{ filePath: 'link.ts', mode: 'text' }] });
  assert.equal(read.files[0]!.content, TEXT);
  await ok(mcp, 'file_write', { files: { 'docs/target.ts': { content: 'export const x = 3;\n', expectedSha256: sha256(TEXT) } } });
  assert.equal(await fsp.readFile(path.join(sb.root, 'link.ts'), 'utf8'), 'export const x = 3;\n');
  assert.ok((await fsp.lstat(path.join(sb.root, 'link.ts'))).isSymbolicLink());
});
