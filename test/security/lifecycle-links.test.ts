// Attack: file_rename, file_chattr and file_delete aimed outside the root through links: a
// destination under a directory link that leads outside (existing or new parents), a source or
// target reached through such a link, a link that itself points outside, and a hard link of an
// outside file inside the root (its name moves or goes; the outside content and mode never change).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileChattrTool } from '../../src/tools/boundary/file-chattr.js';
import { fileDeleteTool } from '../../src/tools/boundary/file-delete.js';
import { fileRenameTool } from '../../src/tools/boundary/file-rename.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { runTool } from '../../src/mcp/server.js';
import { callContext, engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const SECRET = sha('TOP SECRET\n');
let sb: Sandbox;

before(async () => {
  sb = await makeSandbox({ 'in.txt': 'in\n' });
  await fsp.symlink(sb.outside, path.join(sb.root, 'out-dir'));
  await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'secret-link.txt'));
});
after(() => sb.cleanup());

async function codeOf(tool: unknown, files: Record<string, unknown>): Promise<string> {
  const engine = await engineFor(sb.root);
  const r = await runTool(engine, tool as ToolDefinition, { files }, callContext());
  const env = r.structuredContent as { ok: boolean; error?: { code: string } };
  return env.ok ? 'ok' : env.error!.code;
}

test('no rename, mode change or delete reaches outside through a link; nothing on either side changes', async () => {
  const snap = await snapshotTree(sb.base);
  const attempts: Array<[unknown, Record<string, unknown>]> = [
    [fileRenameTool, { 'in.txt': { destination: 'out-dir/in.txt', expectedSha256: sha('in\n') } }],
    [fileRenameTool, { 'in.txt': { destination: 'out-dir/new/deep/in.txt', expectedSha256: sha('in\n') } }],
    [fileRenameTool, { 'out-dir/secret.txt': { destination: 'stolen.txt', expectedSha256: SECRET } }],
    [fileRenameTool, { 'secret-link.txt': { destination: 'stolen.txt', expectedSha256: SECRET } }],
    [fileChattrTool, { 'out-dir/secret.txt': { chattr: { chmod: 0o777 }, expectedSha256: SECRET } }],
    [fileChattrTool, { 'secret-link.txt': { chattr: { chmod: 0o777 }, expectedSha256: SECRET } }],
    [fileDeleteTool, { 'out-dir/secret.txt': { expectedSha256: SECRET, forceReferences: true } }],
    [fileDeleteTool, { 'secret-link.txt': { expectedSha256: SECRET, forceReferences: true } }],
  ];
  for (const [tool, files] of attempts) {
    assert.equal(await codeOf(tool, files), 'path_denied', JSON.stringify(files));
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});

test('a hard link of an outside file: renaming or deleting the name inside never touches the outside file', async () => {
  await fsp.link(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'hard.txt'));
  const outside = await snapshotTree(sb.outside);
  assert.equal(await codeOf(fileRenameTool, { 'hard.txt': { destination: 'hard2.txt', expectedSha256: SECRET } }), 'ok');
  assert.equal(await codeOf(fileDeleteTool, { 'hard2.txt': { expectedSha256: SECRET } }), 'ok');
  assert.deepEqual(await snapshotTree(sb.outside), outside);
  assert.deepEqual((await fsp.readdir(sb.root)).sort(), ['in.txt', 'out-dir', 'secret-link.txt']);
});
