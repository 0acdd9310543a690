// A change that landed is never answered as a failure: each tool that changes files, over a real
// `hashline mcp`, on a change whose full reply (diff or listing) would exceed the 8 MiB message
// limit. The call succeeds, the reply fits, says what it left out, names the new tag, and the disk
// holds exactly the change.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '../../src/core/config/config.js';
import { diffOmitted } from '../../src/core/messages/ast-edit.js';
import { diffLeftOut } from '../../src/core/messages/edit.js';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
before(async () => {
  sb = await makeSandbox();
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

/** `count` numbered lines of about `width` characters, each ending with a newline. */
function numberedLines(count: number, width: number, from = 1): string[] {
  const pad = 'x'.repeat(Math.max(0, width - 14));
  return Array.from({ length: count }, (_, i) => `line ${String(from + i).padStart(7, '0')} ${pad}\n`);
}

const replyBytes = (r: CallToolResult) => Buffer.byteLength(JSON.stringify(r));

async function tagOf(file: string): Promise<string> {
  const r = await mcp.call('fs_read', { targets: [{ path: file, line_range: '1-3' }] });
  const m = /¶[^#\n]+#([0-9A-F]{4})/.exec(textOf(r));
  assert.ok(m, textOf(r));
  return m[1]!;
}

type EditResult = { file_hash: string; header: string; warnings: string[]; diff?: string; first_changed_line?: number };

test('fs_edit: deleting 189,991 lines of a 200,000-line file succeeds; the diff is left out with a note', async () => {
  const lines = numberedLines(200_000, 56);
  await fsp.writeFile(path.join(sb.root, 'big.txt'), lines.join(''));
  const tag = await tagOf('big.txt');
  const r = await mcp.call('fs_edit', { targets: [{ path: 'big.txt', file_hash: tag, ops: 'delete 10..190000' }] });
  assert.notEqual(r.isError, true, textOf(r));
  const expected = [...lines.slice(0, 9), ...lines.slice(190_000)].join('');
  assert.equal(await fsp.readFile(path.join(sb.root, 'big.txt'), 'utf8'), expected);
  const res = (r.structuredContent as { results: EditResult[] }).results[0]!;
  assert.equal(res.file_hash, computeTag(expected));
  assert.equal(res.diff, undefined);
  assert.equal(res.first_changed_line, 10);
  assert.ok(res.warnings.includes(diffLeftOut('big.txt', 10)), res.warnings.join('\n'));
  assert.match(textOf(r), new RegExp(`^¶big\\.txt#${res.file_hash}`));
  assert.ok(replyBytes(r) < MAX_MESSAGE_BYTES);
  // the new tag is good for the next edit
  const again = await mcp.call('fs_edit', { targets: [{ path: 'big.txt', file_hash: res.file_hash, ops: 'delete 1' }] });
  assert.notEqual(again.isError, true, textOf(again));
  assert.equal(await fsp.readFile(path.join(sb.root, 'big.txt'), 'utf8'), expected.slice(lines[0]!.length));
});

test('fs_edit: inserting 60,000 lines succeeds; a small edit in the same call keeps its diff', async () => {
  const small = numberedLines(20, 20);
  await fsp.writeFile(path.join(sb.root, 'grow.txt'), small.join(''));
  await fsp.writeFile(path.join(sb.root, 'side.txt'), small.join(''));
  const [growTag, sideTag] = [await tagOf('grow.txt'), await tagOf('side.txt')];
  const added = numberedLines(60_000, 100, 1_000_000);
  const ops = `insert after 10:\n${added.map((l) => `+${l.slice(0, -1)}`).join('\n')}`;
  const r = await mcp.call('fs_edit', {
    targets: [
      { path: 'side.txt', file_hash: sideTag, ops: 'replace 2:\n+changed' },
      { path: 'grow.txt', file_hash: growTag, ops },
    ],
  });
  assert.notEqual(r.isError, true, textOf(r));
  const expected = [...small.slice(0, 10), ...added, ...small.slice(10)].join('');
  assert.equal(await fsp.readFile(path.join(sb.root, 'grow.txt'), 'utf8'), expected);
  const [side, grow] = (r.structuredContent as { results: EditResult[] }).results;
  assert.match(side!.diff ?? '', /^\+changed$/m);
  assert.equal(grow!.file_hash, computeTag(expected));
  assert.equal(grow!.diff, undefined);
  assert.ok(grow!.warnings.includes(diffLeftOut('grow.txt', 11)), grow!.warnings.join('\n'));
  assert.ok(replyBytes(r) < MAX_MESSAGE_BYTES);
});

test('fs_write: a 7 MiB file is written and answered with its tag, not its content', async () => {
  const text = numberedLines(7 * 1024 * 1024 / 64, 64).join('');
  const r = await mcp.call('fs_write', { targets: [{ path: 'written.txt', text }] });
  assert.notEqual(r.isError, true, textOf(r));
  assert.equal(await fsp.readFile(path.join(sb.root, 'written.txt'), 'utf8'), text);
  assert.equal(textOf(r), `¶written.txt#${computeTag(text)}`);
  assert.ok(replyBytes(r) < 4096);
});

test('fs_rollback: restoring a large version is answered with its tag, not its content', async () => {
  // the largest text the history keeps (512 KiB), full of characters JSON escapes to six bytes
  const line = `${'\u0001'.repeat(1000)}\n`;
  const big = line.repeat(500);
  await fsp.writeFile(path.join(sb.root, 'restore.txt'), big);
  await tagOf('restore.txt');
  const w = await mcp.call('fs_write', { targets: [{ path: 'restore.txt', text: 'small\n' }] });
  assert.notEqual(w.isError, true, textOf(w));
  const r = await mcp.call('fs_rollback', { path: 'restore.txt', hash: '' });
  assert.notEqual(r.isError, true, textOf(r));
  assert.equal(await fsp.readFile(path.join(sb.root, 'restore.txt'), 'utf8'), big);
  assert.equal((r.structuredContent as { file_hash: string }).file_hash, computeTag(big));
  assert.ok(replyBytes(r) < 4096);
});

test('fs_ast_edit: a rewrite whose diff escapes to more than the limit succeeds; the diff is left out with a note', async () => {
  // each line holds 100,000 control characters, which JSON escapes to six bytes each: the diff is
  // about 2 million characters but 12 MB escaped, twice in a reply
  const arg = '\u0001'.repeat(100_000);
  const before = Array.from({ length: 10 }, () => `f("${arg}");\n`).join('');
  await fsp.writeFile(path.join(sb.root, 'controls.js'), before);
  const r = await mcp.call('fs_ast_edit', { ops: [{ pat: 'f($A)', out: 'g($A)' }], paths: ['controls.js'] });
  assert.notEqual(r.isError, true, textOf(r));
  const after = before.replaceAll('f(', 'g(');
  assert.equal(await fsp.readFile(path.join(sb.root, 'controls.js'), 'utf8'), after);
  const out = r.structuredContent as { results: EditResult[]; notes?: string[] };
  assert.equal(out.results[0]!.file_hash, computeTag(after));
  assert.equal(out.results[0]!.diff, undefined);
  assert.deepEqual(out.notes, [diffOmitted(1)]);
  assert.ok(replyBytes(r) < MAX_MESSAGE_BYTES);
});
