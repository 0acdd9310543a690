// End to end: the official SDK client talks to a spawned `hashline mcp` over stdio.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { cliArgs, connectMcp, REPO, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({ 'a.txt': 'alpha\n', 'dir/b.txt': 'beta\n', 'big.bin': Buffer.alloc(2 * 1024 * 1024, 1) });
  await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'leak.txt'));
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

test('tools/list: every tool has a description with an example, strict input, an output schema and annotations', async () => {
  const { tools } = await mcp.client.listTools();
  assert.ok(tools.length >= 1);
  for (const t of tools) {
    assert.ok(t.description && t.description.length > 40, `${t.name} description`);
    assert.match(t.description!, /Example/, `${t.name} has an example`);
    assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${t.name} strict input`);
    assert.equal(t.outputSchema?.type, 'object', `${t.name} output schema`);
    assert.equal(t.annotations?.openWorldHint, false);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean');
    assert.equal(typeof t.annotations?.destructiveHint, 'boolean');
    assert.equal(typeof t.annotations?.idempotentHint, 'boolean');
  }
  assert.ok(tools.some((t) => t.name === 'file_hash'));
});

test('the server announces instructions that say how to recover from a stale tag', () => {
  const instructions = mcp.client.getInstructions() ?? '';
  assert.match(instructions, /re-read/);
  assert.match(instructions, /¶path#TAG/);
});

test('file_hash returns SHA-256 in the boundary envelope, and refuses a link to outside', async () => {
  const r = await mcp.call('file_hash', { filePaths: ['a.txt', 'dir/b.txt', 'leak.txt'] });
  assert.equal(r.isError, undefined);
  const data = (r.structuredContent as { ok: boolean; data: { files: Array<{ filePath: string; sha256?: string; error?: { code: string; details?: { reason?: string } } }> } });
  assert.equal(data.ok, true);
  assert.equal(data.data.files[0]!.sha256, createHash('sha256').update('alpha\n').digest('hex'));
  assert.equal(data.data.files[1]!.filePath, 'dir/b.txt');
  assert.equal(data.data.files[2]!.error?.code, 'path_denied');
  assert.equal(data.data.files[2]!.error?.details?.reason, 'symlink_escape');
  assert.doesNotMatch(textOf(r), /TOP SECRET/);
  assert.deepEqual(JSON.parse(textOf(r)), r.structuredContent, 'the text block is the envelope as JSON');
});

test('progress is reported when the client asks for it', async () => {
  // The server sends every progress notification before the result; the SDK client handles a
  // response synchronously but notifications a tick later, so one that arrives in the same chunk as
  // the result can be dropped client-side. Hence: the first arrives, values increase, totals match.
  const seen: Array<{ progress: number; total?: number }> = [];
  // enough files that the call outlasts the first notifications' trip to the client
  const files = Array.from({ length: 40 }, (_, i) => (i % 2 ? 'a.txt' : 'big.bin'));
  const r = await mcp.client.callTool({ name: 'file_hash', arguments: { filePaths: files } }, undefined, {
    onprogress: (p) => seen.push(p),
  });
  assert.equal((r.structuredContent as { ok: boolean }).ok, true);
  assert.ok(seen.length >= 1);
  assert.equal(seen[0]!.progress, 1);
  seen.forEach((p, i) => {
    assert.equal(p.total, files.length);
    if (i > 0) assert.ok(p.progress > seen[i - 1]!.progress);
  });
});

test('unknown argument keys are refused with a coded error', async () => {
  const r = await mcp.call('file_hash', { filePaths: ['a.txt'], extra: 1 });
  assert.equal(r.isError, true);
  const sc = r.structuredContent as { ok: boolean; error: { code: string } };
  assert.equal(sc.ok, false);
  assert.equal(sc.error.code, 'invalid_arguments');
  assert.match(textOf(r), /invalid_arguments/);
});

test('coded error results of every family validate against the advertised output schemas', async () => {
  // The SDK client validates structuredContent against outputSchema; a mismatch would throw here.
  const calls: Array<[string, Record<string, unknown>, string]> = [
    ['fs_read', { targets: [], extra: 1 }, 'invalid_arguments'],
    ['fs_rollback', { path: 'a.txt', hash: '' }, 'history_missing'],
    ['fs_ast_edit', { ops: [], paths: ['a.txt'] }, 'invalid_arguments'],
    ['file_hash', { filePaths: [] }, 'batch_limit'],
  ];
  for (const [name, args, code] of calls) {
    const r = await mcp.call(name, args);
    assert.equal(r.isError, true, name);
    const sc = r.structuredContent as { error?: { code: string }; ok?: boolean };
    assert.equal(sc.error?.code, code, name);
  }
});

test('a call over the message limit is answered with the too_large error of its tool, and the session goes on', async () => {
  const huge = 'x'.repeat(9 * 1024 * 1024);
  const boundary = await mcp.call('file_write', { files: { 'big.txt': { content: huge } } });
  assert.equal(boundary.isError, true);
  const env = boundary.structuredContent as { ok: boolean; error: { code: string; message: string; details: { limit: number; size: number } } };
  assert.equal(env.ok, false);
  assert.equal(env.error.code, 'too_large');
  assert.match(env.error.message, /exceeds the 8 MiB message limit/);
  assert.equal(env.error.details.limit, 8 * 1024 * 1024);
  assert.deepEqual(JSON.parse(textOf(boundary)), env, 'the text block is the envelope');
  const hashline = await mcp.call('fs_write', { targets: [{ path: 'big.txt', text: huge }] });
  assert.equal(hashline.isError, true);
  assert.equal((hashline.structuredContent as { error: { code: string } }).error.code, 'too_large');
  await assert.rejects(fsp.stat(path.join(sb.root, 'big.txt')));
  const r = await mcp.call('file_hash', { filePaths: ['a.txt'] });
  assert.equal((r.structuredContent as { ok: boolean }).ok, true);
});

test('--tools filters by family and by name; an unknown name fails at start with exit 2', async () => {
  const only = await connectMcp(['--root', sb.root, '--tools', 'boundary']);
  try {
    const names = (await only.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('file_hash'));
    assert.ok(names.every((n) => n.startsWith('file_')));
  } finally {
    await only.close();
  }
  const hashlineOnly = await connectMcp(['--root', sb.root, '--tools', 'hashline']);
  try {
    const names = (await hashlineOnly.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.every((n) => n.startsWith('fs_')));
  } finally {
    await hashlineOnly.close();
  }
  const bad = spawnSync(process.execPath, [...cliArgs(), 'mcp', '--root', sb.root, '--tools', 'nope'], { cwd: REPO, input: '', encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /unknown tool or profile `nope`/);
});

test('a missing root fails at start with a clear message', () => {
  const bad = spawnSync(process.execPath, [...cliArgs(), 'mcp', '--root', path.join(sb.base, 'nope')], { cwd: REPO, input: '', encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /is not an existing directory/);
});

test('--version and --help', () => {
  const v = spawnSync(process.execPath, [...cliArgs(), '--version'], { cwd: REPO, encoding: 'utf8' });
  assert.match(v.stdout, /^\d+\.\d+\.\d+\n$/);
  const h = spawnSync(process.execPath, [...cliArgs(), '--help'], { cwd: REPO, encoding: 'utf8' });
  assert.match(h.stdout, /hashline mcp/);
});
