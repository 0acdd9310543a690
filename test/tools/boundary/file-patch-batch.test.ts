// All-or-nothing file_patch batches of 50 files: the 50th patch failing while it is computed
// writes nothing; the 50th failing while it is written (the file made immutable, so its backup link
// is refused, over a real `hashline mcp`) restores the 49 already written, and the reply lists them. A rollback that cannot
// be completed (an undo sabotaged through the commit's test seam, over an in-memory MCP session)
// names the file it could not prove restored, and the receipts of that batch are spent.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import { filePatchToolWith } from '../../../src/tools/boundary/file-patch.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { engineFor } from '../../helpers/engine.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { skipOrFail } from '../../helpers/needs.js';
import { makeSandbox, snapshotTree } from '../../helpers/tmp-tree.js';

const N = 50;
const name = (i: number) => (i < N - 1 ? `a/f${String(i).padStart(2, '0')}.txt` : 'z/last.txt');
const content = (i: number) => `header ${i}\nvalue = ${i}\nfooter\n`;

async function fifty() {
  const files: Record<string, string> = {};
  for (let i = 0; i < N; i++) files[name(i)] = content(i);
  return makeSandbox(files);
}

function batch(lastSearch = 'value = 49\n') {
  const files: Record<string, unknown> = {};
  for (let i = 0; i < N; i++) {
    files[name(i)] = {
      patchStrategy: 'aider_block',
      expectedSha256: sha256(content(i)),
      aiderBlocks: [{ search: i === N - 1 ? lastSearch : `value = ${i}\n`, replace: `value = ${i + 1000}\n` }],
    };
  }
  return { files };
}

test('a 50-file batch whose 50th patch does not place writes nothing', async () => {
  const sb = await fifty();
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    const snap = await snapshotTree(sb.root);
    const e = await fails(mcp, 'file_patch', batch('value = 4900\n'));
    assert.equal(e.code, 'aider_no_match');
    assert.equal(e.details?.filePath, 'z/last.txt');
    assert.equal(e.details?.operation, 1);
    assert.deepEqual(await snapshotTree(sb.root), snap);
    const done = await ok<{ files: unknown[] }>(mcp, 'file_patch', batch());
    assert.equal(done.files.length, N);
    assert.equal(await fsp.readFile(path.join(sb.root, name(7)), 'utf8'), 'header 7\nvalue = 1007\nfooter\n');
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});

const immutable = (file: string, on: boolean) => spawnSync('chattr', [on ? '+i' : '-i', file], { encoding: 'utf8' }).status === 0;

test('a 50-file batch whose 50th write fails restores all 49 written before it', async (t) => {
  const sb = await fifty();
  const locked = path.join(sb.root, 'z/last.txt');
  if (!immutable(locked, true)) {
    await sb.cleanup();
    return skipOrFail(t, 'chattr +i is not available here (needs root and a file system that supports it)');
  }
  let mcp: McpSession | undefined;
  try {
    mcp = await connectMcp(['--root', sb.root]);
    const snap = await snapshotTree(sb.root);
    const e = await fails(mcp, 'file_patch', batch());
    assert.equal(e.code, 'io_error');
    assert.match(e.message, /EPERM/);
    assert.equal(e.details?.filePath, 'z/last.txt');
    assert.equal(e.details?.rolledBack, true);
    const restored = e.details?.restored as string[];
    assert.equal(restored.length, N - 1);
    assert.deepEqual([...restored].sort(), Array.from({ length: N - 1 }, (_, i) => name(i)).sort());
    assert.deepEqual(await snapshotTree(sb.root), snap);
    assert.deepEqual(readdirSync(path.join(sb.root, 'a')).filter((f) => f.includes('hashline')), [], 'no backup or temporary file is left');
  } finally {
    immutable(locked, false);
    await mcp?.close();
    await sb.cleanup();
  }
});

test('a rollback that cannot be completed names the file not proven restored; its receipt is spent', async () => {
  const sb = await makeSandbox({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'c.txt': 'gamma\n' });
  const engine = await engineFor(sb.root);
  const tool = filePatchToolWith({
    beforeApply: async (i) => {
      if (i !== 2) return;
      // sabotage: remove the backup of the first file written, so its undo cannot succeed
      const bak = readdirSync(sb.root).find((f) => f.startsWith('.a.txt.hashline-bak-'));
      if (bak) await fsp.unlink(path.join(sb.root, bak));
      throw new Error('disk on fire');
    },
  });
  const server = createMcpServer(engine, [tool]);
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  const client = new Client({ name: 'batch-test', version: '0.0.0' });
  await client.connect(ct);
  const call = async (args: Record<string, unknown>) => ((await client.callTool({ name: 'file_patch', arguments: args })) as CallToolResult).structuredContent as { ok: boolean; data?: { files: Array<{ previewReceipt?: string }> }; error?: { code: string; details?: Record<string, unknown> } };
  try {
    const p = await call({ files: { 'a.txt': { patchStrategy: 'aider_block', preview: true, expectedSha256: sha256('alpha\n'), aiderBlocks: [{ search: 'alpha', replace: 'ALPHA' }] } } });
    const receipt = p.data!.files[0]!.previewReceipt!;
    const r = await call({
      files: {
        'a.txt': { previewReceipt: receipt },
        'b.txt': { patchStrategy: 'aider_block', expectedSha256: sha256('beta\n'), aiderBlocks: [{ search: 'beta', replace: 'BETA' }] },
        'c.txt': { patchStrategy: 'aider_block', expectedSha256: sha256('gamma\n'), aiderBlocks: [{ search: 'gamma', replace: 'GAMMA' }] },
      },
    });
    assert.equal(r.ok, false);
    assert.equal(r.error!.code, 'rollback_incomplete');
    assert.deepEqual(r.error!.details?.affected, ['a.txt']);
    assert.deepEqual(r.error!.details?.restored, ['b.txt']);
    assert.equal(await fsp.readFile(path.join(sb.root, 'b.txt'), 'utf8'), 'beta\n');
    const again = await call({ files: { 'a.txt': { previewReceipt: receipt } } });
    assert.equal(again.error?.code, 'preview_receipt_invalid', 'an uncertain outcome spends the receipt');
  } finally {
    await client.close();
    await sb.cleanup();
  }
});
