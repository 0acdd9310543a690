// Preview receipts of file_patch, as clients meet them: a preview writes nothing and returns a
// one-use receipt; the commit writes exactly the previewed candidate. Refused: a replay, another
// file, another MCP session (two sessions over HTTP /mcp), a changed source, a changed
// configuration, an expired receipt (the engine's clock injected), two commits at once (one wins),
// and more receipts or bytes than a session may hold. A failed batch releases its receipts.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mergeConfig } from '../../../src/core/config/config.js';
import { RECEIPT_TTL_MS } from '../../../src/core/receipt-book.js';
import { createHttpServer } from '../../../src/http/server.js';
import { createEngine } from '../../../src/tools/engine.js';
import { ALL_TOOLS } from '../../../src/tools/registry.js';
import { fails, ok, sha256, type EnvelopeError } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

type Result = { filePath: string; preview: boolean; changed: boolean; sha256: string; sourceSha256: string; previewReceipt?: string; receiptExpiresAt?: string; receiptCommitted?: boolean; diff?: string; matchMethods: string[]; strategy: string; operations: number; matches: number };
type Patched = { files: Result[] };

const hashOf = async (root: string, rel: string) => sha256(await fsp.readFile(path.join(root, rel)));

async function preview(mcp: McpSession, root: string, rel: string, search: string, replace: string): Promise<Result> {
  const data = await ok<Patched>(mcp, 'file_patch', { files: { [rel]: { patchStrategy: 'aider_block', preview: true, expectedSha256: await hashOf(root, rel), aiderBlocks: [{ search, replace }] } } });
  return data.files[0]!;
}

describe('receipts over stdio', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox({ 'a.txt': 'alpha\nbeta\n', 'b.txt': 'one\ntwo\n', 'hashline.toml': '# defaults\n' });
    mcp = await connectMcp(['--root', sb.root]);
    await mcp.client.listTools();
  // listed first, the client checks every result against the tool's output schema
  await mcp.client.listTools();
  });
  after(async () => {
    await mcp.close();
    await sb.cleanup();
  });
  const read = (rel: string) => fsp.readFile(path.join(sb.root, rel), 'utf8');

  test('a preview writes nothing; its receipt commits exactly the candidate, once', async () => {
    const p = await preview(mcp, sb.root, 'a.txt', 'beta\n', 'BETA\n');
    assert.equal(p.preview, true);
    assert.equal(p.changed, true);
    assert.match(p.previewReceipt!, /^pr_/);
    assert.ok(Date.parse(p.receiptExpiresAt!) > Date.now() + RECEIPT_TTL_MS - 60_000);
    assert.equal(p.sha256, sha256('alpha\nBETA\n'));
    assert.match(p.diff!, /^\+BETA$/m);
    assert.equal(await read('a.txt'), 'alpha\nbeta\n');
    const done = await ok<Patched>(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(done.files[0]!.receiptCommitted, true);
    assert.equal(done.files[0]!.sha256, p.sha256);
    assert.deepEqual(done.files[0]!.matchMethods, ['exact']);
    assert.equal(await read('a.txt'), 'alpha\nBETA\n');
    const replay = await fails(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(replay.code, 'preview_receipt_invalid');
    assert.equal(replay.message, 'Preview receipt is unknown or has already been used');
    assert.equal(replay.details?.filePath, 'a.txt');
  });

  test('a receipt commit takes no strategy or operations, and a given hash must be the previewed source', async () => {
    const p = await preview(mcp, sb.root, 'a.txt', 'alpha\n', 'ALPHA\n');
    const e = await fails(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt, patchStrategy: 'aider_block' } } });
    assert.equal(e.code, 'patch_strategy_arguments');
    const h = await fails(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt, expectedSha256: sha256('other') } } });
    assert.equal(h.code, 'stale_or_missing_hash');
    // neither refusal spent the receipt
    await ok(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt, expectedSha256: p.sourceSha256 } } });
    assert.equal(await read('a.txt'), 'ALPHA\nBETA\n');
  });

  test('another file is refused (the receipt stays its own file\'s)', async () => {
    const p = await preview(mcp, sb.root, 'a.txt', 'ALPHA\n', 'alpha\n');
    const e = await fails(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(e.code, 'preview_receipt_invalid');
    assert.equal(e.message, 'Preview receipt does not belong to this file');
    assert.equal(e.details?.filePath, 'b.txt');
    assert.equal(await read('b.txt'), 'one\ntwo\n');
    await ok(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
  });

  test('a changed source is refused with the stale-context text and needs a new preview', async () => {
    const p = await preview(mcp, sb.root, 'b.txt', 'two\n', 'TWO\n');
    await fsp.writeFile(path.join(sb.root, 'b.txt'), 'one\ntwo\nthree\n');
    const e = await fails(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(e.code, 'stale_or_missing_hash');
    assert.equal(e.message, `Stale file context: expected ${p.sourceSha256}, found ${sha256('one\ntwo\nthree\n')}`);
    await fsp.writeFile(path.join(sb.root, 'b.txt'), 'one\ntwo\n');
    const again = await fails(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(again.message, 'Preview receipt is unknown or has already been used');
    assert.equal(await read('b.txt'), 'one\ntwo\n');
  });

  test('a configuration change makes outstanding receipts stale', async () => {
    const p = await preview(mcp, sb.root, 'b.txt', 'two\n', 'TWO\n');
    await fsp.writeFile(path.join(sb.root, 'hashline.toml'), '[files.patch]\naider_matchers = ["exact"]\n');
    const e = await fails(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(e.code, 'preview_receipt_invalid');
    assert.equal(e.message, 'Preview receipt is stale because configuration changed');
    assert.equal(await read('b.txt'), 'one\ntwo\n');
  });

  test('two commits of one receipt at once: exactly one lands', async () => {
    const p = await preview(mcp, sb.root, 'b.txt', 'one\n', 'ONE\n');
    const call = () => mcp.call('file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } }) as Promise<CallToolResult>;
    const results = await Promise.all([call(), call()]);
    const envs = results.map((r) => r.structuredContent as { ok: boolean; error?: EnvelopeError });
    assert.equal(envs.filter((e) => e.ok).length, 1, JSON.stringify(envs));
    const refused = envs.find((e) => !e.ok)!.error!;
    assert.ok(['preview_receipt_in_use', 'preview_receipt_invalid'].includes(refused.code), refused.code);
    assert.equal(await read('b.txt'), 'ONE\ntwo\n');
  });

  test('a failed batch releases its receipts; the whole batch wrote nothing', async () => {
    const p = await preview(mcp, sb.root, 'b.txt', 'two\n', 'TWO\n');
    const snap = await snapshotTree(sb.root);
    const e = await fails(mcp, 'file_patch', {
      files: {
        'b.txt': { previewReceipt: p.previewReceipt },
        'a.txt': { patchStrategy: 'aider_block', expectedSha256: await hashOf(sb.root, 'a.txt'), aiderBlocks: [{ search: 'no such text anywhere in it', replace: 'x' }] },
      },
    });
    assert.equal(e.code, 'aider_no_match');
    assert.equal(e.details?.filePath, 'a.txt');
    assert.deepEqual(await snapshotTree(sb.root), snap);
    await ok(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.previewReceipt } } });
    assert.equal(await read('b.txt'), 'ONE\nTWO\n');
  });

  test('limits: 32 outstanding receipts per session; a commit frees room', async () => {
    const receipts: string[] = [];
    let refused: EnvelopeError | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = (await mcp.call('file_patch', { files: { 'a.txt': { patchStrategy: 'aider_block', preview: true, expectedSha256: await hashOf(sb.root, 'a.txt'), aiderBlocks: [{ search: 'alpha\n', replace: `alpha ${i}\n` }] } } })) as CallToolResult;
      const env = r.structuredContent as { ok: boolean; data?: Patched; error?: EnvelopeError };
      if (env.ok) receipts.push(env.data!.files[0]!.previewReceipt!);
      else refused = env.error;
    }
    assert.equal(refused?.code, 'preview_receipt_limit');
    assert.equal(refused?.retryable, true);
    assert.equal(receipts.length, 32, 'the earlier tests left no receipt outstanding');
    // committing one frees room for another
    await ok(mcp, 'file_patch', { files: { 'a.txt': { previewReceipt: receipts[0] } } });
    await preview(mcp, sb.root, 'a.txt', 'BETA\n', 'beta\n');
  });
});

describe('receipts over HTTP /mcp: sessions and expiry', () => {
  let sb: Sandbox;
  let now = Date.now();
  let url = '';
  let close: () => Promise<void>;
  before(async () => {
    sb = await makeSandbox({ 'a.txt': 'alpha\nbeta\n', 'big.txt': `${'x'.repeat(99)}\n`.repeat(45_000) });
    const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }), { clock: () => now });
    const { app } = await createHttpServer(engine, { tools: ALL_TOOLS, host: '127.0.0.1', limits: { diskReserveBytes: 0 } });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    close = () => app.close();
  });
  after(async () => {
    await close();
    await sb.cleanup();
  });

  async function session(): Promise<McpSession> {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
    const client = new Client({ name: 'receipts-test', version: '0.0.0' });
    await client.connect(transport);
    return {
      client,
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      close: async () => {
        await transport.terminateSession().catch(() => undefined);
        await client.close();
      },
      stderr: () => '',
    };
  }

  test('a receipt belongs to the MCP session that previewed it', async () => {
    const [s1, s2] = [await session(), await session()];
    try {
      const p = await preview(s1, sb.root, 'a.txt', 'alpha\n', 'ALPHA\n');
      const e = await fails(s2, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
      assert.equal(e.code, 'preview_receipt_invalid');
      assert.equal(e.message, 'Preview receipt belongs to a different MCP session');
      assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'alpha\nbeta\n');
      await ok(s1, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
      assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'ALPHA\nbeta\n');
    } finally {
      await s1.close();
      await s2.close();
    }
  });

  test('a receipt expires after 5 minutes (the engine clock, injected)', async () => {
    const s = await session();
    try {
      const p = await preview(s, sb.root, 'a.txt', 'beta\n', 'BETA\n');
      assert.equal(Date.parse(p.receiptExpiresAt!), now + RECEIPT_TTL_MS);
      now += RECEIPT_TTL_MS + 1;
      const e = await fails(s, 'file_patch', { files: { 'a.txt': { previewReceipt: p.previewReceipt } } });
      assert.equal(e.code, 'preview_receipt_expired');
      assert.equal(e.message, 'Preview receipt has expired; preview the patch again');
      assert.equal(e.suggestedNextCall, 'file_patch');
      assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'ALPHA\nbeta\n');
    } finally {
      await s.close();
    }
  });

  test('a candidate over 4 MiB gets no receipt', async () => {
    const s = await session();
    try {
      const e = await fails(s, 'file_patch', { files: { 'big.txt': { patchStrategy: 'aider_block', preview: true, expectedSha256: await hashOf(sb.root, 'big.txt'), aiderBlocks: [{ search: '', replace: 'tail\n' }] } } });
      assert.equal(e.code, 'preview_receipt_limit');
      assert.equal(e.details?.filePath, 'big.txt');
    } finally {
      await s.close();
    }
  });
});
