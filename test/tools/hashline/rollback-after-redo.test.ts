// The same change made again after a rollback (A → B, rollback to A, A → B again) is undone by
// fs_rollback "": a write makes its text the newest version even when the history held it already
// (the second write finds B in the window, and the text it replaced, A, was just made the newest).
// Over a real `hashline mcp`, for each writing tool, in the durable store and in memory; and a
// rollback walking back keeps the order (A → B → C, rollback, rollback: A).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const A = 'one\ntwo\nthree\n';
const B = 'one\nTWO\nthree\n';
const C = 'one\nTWO\nthree\nfour\n';

const open: Array<{ mcp: McpSession; sb: Sandbox }> = [];
after(async () => {
  for (const { mcp, sb } of open) {
    await mcp.close();
    await sb.cleanup();
  }
});

async function server(store: string): Promise<{ mcp: McpSession; sb: Sandbox; disk: () => Promise<string> }> {
  const sb = await makeSandbox({ 'f.txt': A });
  const mcp = await connectMcp(['--root', sb.root, '--history', store]);
  open.push({ mcp, sb });
  return { mcp, sb, disk: () => fsp.readFile(path.join(sb.root, 'f.txt'), 'utf8') };
}

type Structured = { results?: Array<{ file_hash: string; sha256?: string }>; file_hash?: string; code?: string; error?: { code: string } };
async function ok(mcp: McpSession, name: string, args: Record<string, unknown>): Promise<Structured> {
  const r = await mcp.call(name, args);
  assert.equal(r.isError, undefined, `${name}: ${textOf(r)}`);
  return r.structuredContent as Structured;
}
const tagOf = async (mcp: McpSession) => (await ok(mcp, 'fs_read', { targets: [{ path: 'f.txt' }] })).results![0]!.file_hash;

/** Each tool's way to change A into B, from a fresh read. */
const writers: Record<string, (mcp: McpSession) => Promise<unknown>> = {
  fs_edit: async (mcp) => ok(mcp, 'fs_edit', { targets: [{ path: 'f.txt', file_hash: await tagOf(mcp), ops: 'replace 2:\n+TWO' }] }),
  fs_write: async (mcp) => ok(mcp, 'fs_write', { targets: [{ path: 'f.txt', text: B }] }),
  file_write: async (mcp) => {
    const sha = (await ok(mcp, 'fs_read', { targets: [{ path: 'f.txt' }] })).results![0]!.sha256;
    return ok(mcp, 'file_write', { files: { 'f.txt': { content: B, expectedSha256: sha } } });
  },
};

for (const store of ['sqlite', 'memory']) {
  for (const [tool, write] of Object.entries(writers)) {
    test(`${tool} (${store}): the same change again after a rollback is undone by fs_rollback ""`, async () => {
      const { mcp, disk } = await server(store);
      await tagOf(mcp);
      for (let round = 1; round <= 3; round++) {
        await write(mcp);
        assert.equal(await disk(), B, `round ${round}: written`);
        await ok(mcp, 'fs_rollback', { path: 'f.txt' });
        assert.equal(await disk(), A, `round ${round}: rolled back`);
      }
    });
  }

  test(`fs_rollback "" walks back one version at a time (${store})`, async () => {
    const { mcp, disk } = await server(store);
    await ok(mcp, 'fs_edit', { targets: [{ path: 'f.txt', file_hash: await tagOf(mcp), ops: 'replace 2:\n+TWO' }] });
    await ok(mcp, 'fs_edit', { targets: [{ path: 'f.txt', file_hash: await tagOf(mcp), ops: 'insert tail:\n+four' }] });
    assert.equal(await disk(), C);
    await ok(mcp, 'fs_rollback', { path: 'f.txt' });
    assert.equal(await disk(), B);
    await ok(mcp, 'fs_rollback', { path: 'f.txt' });
    assert.equal(await disk(), A);
    const r = await mcp.call('fs_rollback', { path: 'f.txt' });
    assert.equal(r.isError, true);
    assert.equal((r.structuredContent as Structured).error!.code, 'no_previous_version');
  });
}
