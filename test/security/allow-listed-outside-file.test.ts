// Attack: a file outside the root on the allow list. It must be readable and writable (the
// parent directory a write opens and verifies is outside the root, yet the write lands), while
// every sibling in that directory, and any new name there, stays refused. Checked on the guarded
// I/O itself, over MCP (fs_read, fs_write, fs_edit) and over HTTP (GET / PUT /v1/fs/file).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { attack, MARKER } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';

async function outsideTree(sb: Sandbox): Promise<string> {
  await fsp.writeFile(path.join(sb.outside, 'allowed.txt'), 'one\ntwo\n');
  return path.join(sb.outside, 'allowed.txt');
}

/** The outside directory as it should be after writes to the allowed file only: the other entries unchanged, nothing left behind. */
async function assertOnlyAllowedChanged(sb: Sandbox, before: Map<string, string>, allowedContent: string): Promise<void> {
  const now = await snapshotTree(sb.outside);
  assert.deepEqual([...now.keys()].sort(), [...before.keys()].sort(), 'no file appeared or vanished outside (no lock or temp left)');
  for (const [k, v] of before) if (k !== 'allowed.txt') assert.equal(now.get(k), v, `${k} changed`);
  assert.equal(await fsp.readFile(path.join(sb.outside, 'allowed.txt'), 'utf8'), allowedContent);
}

describe('the guarded I/O', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await makeSandbox({ 'in.txt': 'in\n' });
  });
  after(() => sb.cleanup());

  test('the allowed file is read and written; its sibling and a new name beside it are refused', async () => {
    const allowed = await outsideTree(sb);
    const engine = await engineFor(sb.root, { allow: [allowed] });
    const before = await snapshotTree(sb.outside);
    const ok = await attack(engine, allowed);
    assert.deepEqual([ok.read, ok.readText, ok.write], ['ok', 'one\ntwo\n', 'ok']);
    for (const p of [path.join(sb.outside, 'secret.txt'), path.join(sb.outside, 'new.txt'), sb.outside]) {
      const r = await attack(engine, p);
      assert.deepEqual([r.read, r.write], ['path_outside_root', 'path_outside_root'], p);
    }
    await assertOnlyAllowedChanged(sb, before, MARKER);
  });
});

describe('over MCP', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  let allowed: string;
  before(async () => {
    sb = await makeSandbox({ 'in.txt': 'in\n' });
    allowed = await outsideTree(sb);
    mcp = await connectMcp(['--root', sb.root, '--allow', allowed]);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('fs_read, fs_write and fs_edit work on the allowed file; the sibling stays refused', async () => {
    const before = await snapshotTree(sb.outside);
    const read = await mcp.call('fs_read', { targets: [{ path: allowed }] });
    assert.match(textOf(read), /1\| one/);
    const w = await mcp.call('fs_write', { targets: [{ path: allowed, text: 'alpha\nbeta\n' }] });
    assert.doesNotMatch(textOf(w), /warning/, textOf(w));
    const tag = (w.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
    const e = await mcp.call('fs_edit', { targets: [{ path: allowed, file_hash: tag, ops: 'replace 2:\n+gamma' }] });
    assert.equal(e.isError, undefined, textOf(e));
    await assertOnlyAllowedChanged(sb, before, 'alpha\ngamma\n');
    for (const p of [path.join(sb.outside, 'secret.txt'), path.join(sb.outside, 'new.txt')]) {
      assert.match(textOf(await mcp.call('fs_read', { targets: [{ path: p }] })), /outside project root/, p);
      assert.match(textOf(await mcp.call('fs_write', { targets: [{ path: p, text: 'pwned\n' }] })), /outside project root/, p);
    }
    await assertOnlyAllowedChanged(sb, before, 'alpha\ngamma\n');
  });
});

describe('over HTTP', () => {
  let d: Daemon;
  let allowed: string;
  before(async () => {
    d = await startDaemon({ files: { 'in.txt': 'in\n' }, allow: (sb) => [path.join(sb.outside, 'allowed.txt')] });
    allowed = await outsideTree(d.sandbox);
  });
  after(() => d.close());

  test('GET and PUT /v1/fs/file work on the allowed file; the sibling stays 403', async () => {
    const before = await snapshotTree(d.sandbox.outside);
    const put = await d.call(`/v1/fs/file?${q({ path: allowed })}`, { method: 'PUT', body: 'via http\n' });
    assert.equal(put.status, 204, await put.text());
    const get = await d.call(`/v1/fs/file?${q({ path: allowed })}`);
    assert.equal(await get.text(), 'via http\n');
    const sibling = path.join(d.sandbox.outside, 'secret.txt');
    assert.equal((await d.call(`/v1/fs/file?${q({ path: sibling })}`)).status, 403);
    assert.equal((await d.call(`/v1/fs/file?${q({ path: sibling })}`, { method: 'PUT', body: 'pwned\n' })).status, 403);
    await assertOnlyAllowedChanged(d.sandbox, before, 'via http\n');
  });
});
