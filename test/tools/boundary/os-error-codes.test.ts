// One code for an operating-system refusal in the boundary family: the same EPERM (an immutable
// file, `chattr +i`, refused even to root) is io_error with details.errno and details.filePath in
// file_write, file_patch, file_chattr, file_rename and file_delete, and the file is left as it was.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runTool } from '../../../src/mcp/server.js';
import { ALL_TOOLS } from '../../../src/tools/registry.js';
import { sha256 } from '../../helpers/boundary.js';
import { callContext, engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const TEXT = 'export const x = 1;\n';
const tool = (name: string) => ALL_TOOLS.find((t) => t.name === name)!;

test('EPERM is io_error with errno and filePath in every boundary change', async (t) => {
  const sb = await makeSandbox({ 'frozen.ts': TEXT });
  const frozen = path.join(sb.root, 'frozen.ts');
  const made = spawnSync('chattr', ['+i', frozen], { encoding: 'utf8' });
  try {
    if (made.status !== 0) return t.skip(`chattr +i is not available here: ${(made.stderr || String(made.error)).trim()}`);
    const engine = await engineFor(sb.root);
    const hash = sha256(TEXT);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['file_write', { files: { 'frozen.ts': { content: 'y\n', expectedSha256: hash } } }],
      ['file_patch', { files: { 'frozen.ts': { patchStrategy: 'aider_block', expectedSha256: hash, aiderBlocks: [{ search: 'x = 1', replace: 'x = 2' }] } } }],
      ['file_chattr', { files: { 'frozen.ts': { chattr: { chmod: 0o600 }, expectedSha256: hash } } }],
      ['file_rename', { files: { 'frozen.ts': { destination: 'moved.ts', expectedSha256: hash } } }],
      ['file_delete', { files: { 'frozen.ts': { expectedSha256: hash } } }],
    ];
    const mode = (await fsp.stat(frozen)).mode;
    for (const [name, args] of calls) {
      const r = await runTool(engine, tool(name), args, callContext());
      const env = r.structuredContent as { ok: boolean; error: { code: string; details?: { errno?: string; filePath?: string } } };
      assert.equal(r.isError, true, name);
      assert.equal(env.error.code, 'io_error', `${name}: ${JSON.stringify(env.error)}`);
      assert.equal(env.error.details?.errno, 'EPERM', name);
      assert.equal(env.error.details?.filePath, 'frozen.ts', name);
    }
    assert.equal(await fsp.readFile(frozen, 'utf8'), TEXT);
    assert.equal((await fsp.stat(frozen)).mode, mode);
    await assert.rejects(fsp.stat(path.join(sb.root, 'moved.ts')));
  } finally {
    spawnSync('chattr', ['-i', frozen]);
    await sb.cleanup();
  }
});
