// Two real MCP clients (two `hashline mcp` processes, two sessions) read one file and edit it with
// the same tag at the same time. Exactly one edit applies directly; the other is merged (disjoint
// lines) or refused (same line); no update is lost.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as msg from '../../../src/core/messages/edit.js';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let a: McpSession;
let b: McpSession;
const FILE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

before(async () => {
  sb = await makeSandbox({ 'shared.txt': FILE });
  [a, b] = await Promise.all([connectMcp(['--root', sb.root]), connectMcp(['--root', sb.root])]);
});
after(async () => {
  await a?.close();
  await b?.close();
  await sb?.cleanup();
});

type EditOut = { results?: Array<{ file_hash: string; warnings: string[] }>; code?: string; cause?: string };

async function read(s: McpSession): Promise<string> {
  const r = await s.call('fs_read', { targets: [{ path: 'shared.txt' }] });
  assert.equal(r.isError, undefined, textOf(r));
  return (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
}

const edit = (s: McpSession, tag: string, ops: string) => s.call('fs_edit', { targets: [{ path: 'shared.txt', file_hash: tag, ops }] });
const out = (r: CallToolResult) => r.structuredContent as EditOut;
const isDirect = (r: CallToolResult) => r.isError !== true && out(r).results![0]!.warnings.length === 0;

test('disjoint lines, same tag: one applies directly, the other merges; both changes are in the file', async () => {
  const p = path.join(sb.root, 'shared.txt');
  for (let round = 0; round < 3; round++) {
    await fsp.writeFile(p, FILE);
    const [ta, tb] = await Promise.all([read(a), read(b)]);
    assert.equal(ta, tb);
    const [ra, rb] = await Promise.all([edit(a, ta, 'replace 2:\n+A was here'), edit(b, tb, 'replace 15:\n+B was here')]);
    assert.equal([ra, rb].filter(isDirect).length, 1, `${textOf(ra)}\n---\n${textOf(rb)}`);
    const other = isDirect(ra) ? rb : ra;
    assert.equal(other.isError, undefined, textOf(other));
    // Both servers share the root's durable history, so the winner's result is already a newer
    // version when the other edit merges (an earlier snapshot); later rounds re-read texts the
    // history holds, in an order that depends on which client won before: either warning is right.
    const warnings = out(other).results![0]!.warnings;
    assert.ok(warnings.length === 1 && [msg.RECOVERED_PREVIOUS_READ, msg.RECOVERED_EARLIER_SNAPSHOT].includes(warnings[0]!), warnings.join('|'));
    const text = await fsp.readFile(p, 'utf8');
    assert.equal(text, FILE.replace('line 2\n', 'A was here\n').replace('line 15\n', 'B was here\n'));
  }
});

test('the same line, same tag: one applies directly, the other is refused; nothing is lost', async () => {
  const p = path.join(sb.root, 'shared.txt');
  for (let round = 0; round < 3; round++) {
    await fsp.writeFile(p, FILE);
    const [ta, tb] = await Promise.all([read(a), read(b)]);
    const [ra, rb] = await Promise.all([edit(a, ta, 'replace 7:\n+from A'), edit(b, tb, 'replace 7:\n+from B')]);
    assert.equal([ra, rb].filter(isDirect).length, 1);
    const [winner, loser] = isDirect(ra) ? [ra, rb] : [rb, ra];
    assert.equal(loser.isError, true);
    assert.equal(out(loser).code, 'edit_rejected');
    assert.match(textOf(loser), /Edit rejected: file changed between read and edit\./);
    const text = await fsp.readFile(p, 'utf8');
    assert.equal(text, FILE.replace('line 7\n', winner === ra ? 'from A\n' : 'from B\n'));
  }
});

test('over MCP: fs_edit then fs_rollback "" restores the read version; results match the declared output schemas', async () => {
  const p = path.join(sb.root, 'shared.txt');
  await fsp.writeFile(p, FILE);
  const tag = await read(a);
  const e = await edit(a, tag, 'delete 1..10');
  assert.equal(e.isError, undefined, textOf(e));
  const newTag = out(e).results![0]!.file_hash;
  assert.ok(textOf(e).startsWith(`¶shared.txt#${newTag}`));
  const r = await a.call('fs_rollback', { path: 'shared.txt', hash: '' });
  assert.equal(r.isError, undefined, textOf(r));
  assert.deepEqual(r.structuredContent, { path: 'shared.txt', file_hash: tag, header: `¶shared.txt#${tag}`, replaced_hash: newTag });
  assert.equal(await fsp.readFile(p, 'utf8'), FILE);
  const err = await a.call('fs_rollback', { path: 'nothing-here.txt', hash: '' });
  assert.equal(err.isError, true);
  assert.match(textOf(err), /no rollback history for `nothing-here\.txt`/);
});
