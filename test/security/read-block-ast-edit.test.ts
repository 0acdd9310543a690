// Attack: with `--read-block secrets`, a structural rewrite of a read-blocked file, named, by its
// directory or by a glob, to read it from the diff or to probe it (a pattern matches or not). A
// rewrite reads what it matches, so the file is not rewritten: a named one gets a warning, a walked
// one is skipped, and no reply carries its content.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readBlockedNotRewritten } from '../../src/core/messages/ast-edit.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

const SECRET = 'export const apiKey = "hunter2-top-secret";\nexport const db = "hunter2-db";\n';

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox({ 'secrets/key.ts': SECRET, 'src/a.ts': 'export const a = "plain";\n' });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('fs_ast_edit never rewrites or shows a read-blocked file', async () => {
  const snap = await snapshotTree(sb.base);
  const ops = [{ pat: 'export const $N = $V;', out: 'export const $N = $V; // $V' }];
  const named = await mcp.call('fs_ast_edit', { ops, paths: ['secrets/key.ts'] });
  assert.doesNotMatch(JSON.stringify(named), /hunter2/);
  const results = (named.structuredContent as { results: Array<{ path: string; warnings: string[]; diff?: string }> }).results;
  assert.deepEqual(results.map((r) => [r.path, r.warnings, r.diff]), [['secrets/key.ts', [readBlockedNotRewritten('secrets/key.ts')], undefined]]);
  for (const paths of [['secrets'], ['secrets/*.ts'], ['**/*.ts'], ['.']]) {
    const r = await mcp.call('fs_ast_edit', { ops: [{ pat: '"hunter2-top-secret"', out: '"x"' }], paths });
    assert.doesNotMatch(JSON.stringify(r), /hunter2/, paths.join());
    assert.ok(!(r.structuredContent as { results: Array<{ path: string }> }).results.some((x) => x.path.startsWith('secrets/')), paths.join());
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});
