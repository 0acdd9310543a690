// The server's instructions name only the tools it lists (`--tools`), for every selection, and the
// spawned server sends what instructionsFor makes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTRUCTIONS, instructionsFor } from '../../src/mcp/instructions.js';
import { LAZY_TOOLS, selectLazyTools } from '../../src/tools/tool-loaders.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const ALL = LAZY_TOOLS.map((t) => t.name);
const named = (text: string) => ALL.filter((n) => new RegExp(`\\b${n}\\b`).test(text));

test('every tool listed: the instructions whole', () => {
  assert.equal(instructionsFor(ALL), INSTRUCTIONS);
});

test('each selection: the instructions name no tool outside it', () => {
  for (const selection of [['hashline'], ['boundary'], ['fs_read', 'fs_edit'], ['file_hash', 'file_rename', 'file_chattr', 'file_delete'], ['fs_list']]) {
    const listed = selectLazyTools(selection).map((t) => t.name);
    const text = instructionsFor(listed);
    assert.deepEqual(named(text).filter((n) => !listed.includes(n)), [], selection.join(','));
    assert.notEqual(text, '', selection.join(','));
  }
  assert.match(instructionsFor(selectLazyTools(['hashline']).map((t) => t.name)), /fs_edit/);
});

test('hashline mcp --tools hashline: the instructions sent name no boundary tool', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const mcp = await connectMcp(['--root', sb.root, '--tools', 'hashline', '--history', 'memory']);
  try {
    const sent = mcp.client.getInstructions() ?? '';
    assert.deepEqual(named(sent).filter((n) => n.startsWith('file_')), []);
    assert.match(sent, /fs_rollback/);
    assert.ok(sent.startsWith(instructionsFor(selectLazyTools(['hashline']).map((t) => t.name))));
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
