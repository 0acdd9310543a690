// fs_read and fs_write end to end (and the token-saving opt-ins of fs_read and fs_edit): the
// official SDK client over stdio against a spawned server.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({ 'src/app.ts': 'export function main() {\n  return 42;\n}\n', 'crlf.txt': 'a\r\nb\r\n' });
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

test('tools/list has fs_read and fs_write with strict inputs', async () => {
  const { tools } = await mcp.client.listTools();
  for (const name of ['fs_read', 'fs_write']) {
    const t = tools.find((x) => x.name === name);
    assert.ok(t, name);
    assert.match(t.description!, /Example: \{"targets"/);
  }
});

test('write, then read it back by symbol and by range, then a directory search', async () => {
  const w = await mcp.call('fs_write', { targets: [{ path: 'src/new.py', text: 'def hello():\n    return "hi"\n' }, { path: 'crlf.txt', text: 'x\ny\n' }] });
  assert.equal(w.isError, undefined);
  const results = (w.structuredContent as { results: Array<{ path: string; file_hash: string; header: string }> }).results;
  const tag = computeTag('def hello():\n    return "hi"\n');
  assert.deepEqual(results[0], { path: 'src/new.py', file_hash: tag, sha256: createHash('sha256').update('def hello():\n    return "hi"\n').digest('hex'), header: `¶src/new.py#${tag}` });
  assert.equal(await fsp.readFile(path.join(sb.root, 'crlf.txt'), 'utf8'), 'x\r\ny\r\n');

  const r = await mcp.call('fs_read', { targets: [{ path: 'src/new.py', symbol: 'hello' }, { path: 'src/app.ts', line_range: '2-2' }, { path: 'src', symbol: 'main' }, { path: 'gone.txt' }] });
  assert.equal(r.isError, undefined);
  const rr = (r.structuredContent as { results: Array<{ path: string; content: string; warnings?: string }> }).results;
  assert.equal(rr[0]!.content, `¶src/new.py#${tag}\n1| def hello():\n2|     return "hi"`);
  assert.equal(rr[1]!.content.split('\n').slice(1).join('\n'), '2|   return 42;\n[1 more lines in file; continue with line_range "3-3"]');
  assert.equal(rr[2]!.path, 'src/app.ts');
  assert.equal(rr[3]!.warnings, 'File not found: gone.txt');
  assert.ok(textOf(r).includes('1| def hello():'));
  assert.ok(textOf(r).includes('File not found: gone.txt'));
});

test('a strict schema refuses unknown keys', async () => {
  const r = await mcp.call('fs_read', { targets: [{ path: 'a', offset: 3 }] });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /^\[invalid_arguments\]/);
});

test('a path in both lists: fs_write is an error result with the coded message, nothing written', async () => {
  const s2 = await makeSandbox({ 'a.txt': 'a\n' });
  const m2 = await connectMcp(['--root', s2.root, '--block', path.join(s2.root, 'both.txt'), '--allow', path.join(s2.root, 'both.txt')]);
  try {
    const r = await m2.call('fs_write', { targets: [{ path: 'a.txt', text: 'changed\n' }, { path: 'both.txt', text: 'x\n' }] });
    assert.equal(r.isError, true);
    assert.equal(textOf(r), '[path_conflict] permission denied: `both.txt` — Security Alert: path is in both blocklist and allowlist.');
    assert.equal(await fsp.readFile(path.join(s2.root, 'a.txt'), 'utf8'), 'a\n');
  } finally {
    await m2.close();
    await s2.cleanup();
  }
});

test('the opt-ins an agent asks for to spend fewer tokens: a long function whole, then a compact edit reply', async () => {
  const body = Array.from({ length: 30 }, (_, i) => `  const v${i} = ${i};`);
  const text = ['export function long() {', ...body, '  return 0;', '}', ''].join('\n');
  await fsp.writeFile(path.join(sb.root, 'src/long.ts'), text);
  const tag = computeTag(text);
  const r = await mcp.call('fs_read', { targets: [{ path: 'src/long.ts', symbol: 'long', full: true }] });
  const shown = ['export function long() {', ...body, '  return 0;', '}'].map((l, i) => `${i + 1}| ${l}`).join('\n');
  assert.equal(textOf(r), `¶src/long.ts#${tag}\n${shown}`);
  const e = await mcp.call('fs_edit', { targets: [{ path: 'src/long.ts', file_hash: tag, ops: 'replace 17:\n+  const v15 = 150;' }], reply: 'compact' });
  assert.equal(e.isError, undefined);
  const after = text.replace('const v15 = 15;', 'const v15 = 150;');
  assert.equal(await fsp.readFile(path.join(sb.root, 'src/long.ts'), 'utf8'), after);
  assert.equal(textOf(e), `#${computeTag(after)} changed line 17 (+1 -1)`);
  // the structured result is the seed's EditResult, with its header and no diff
  const res = (e.structuredContent as { results: Array<Record<string, unknown>> }).results[0]!;
  assert.equal(res.header, `¶src/long.ts#${computeTag(after)}`);
  assert.equal(res.diff, undefined);
});
