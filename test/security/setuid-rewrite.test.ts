// A rewrite of an existing setuid/setgid file, by either face, drops those bits (as the kernel does
// for a write) and keeps the owner. Before, a rewrite copied the old mode: as root, a root-owned
// setuid program rewritten with new content stayed setuid root (the bits fell only as a side effect
// of fchown when the owner was someone else); `PUT ...&mode=6777` made one outright (refused now,
// test/http/file/file-routes.test.ts). HTTP PUT and, over /mcp, fs_write, fs_edit and fs_ast_edit.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { skipOrFail } from '../helpers/needs.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';

const isRoot = process.getuid?.() === 0;
let d: Daemon;
let client: Client;

before(async () => {
  d = await startDaemon({
    files: { 'put-root.sh': '#!/bin/sh\nold\n', 'put-other.sh': '#!/bin/sh\nold\n', 'w.sh': '#!/bin/sh\nold\n', 'e.txt': 'one\ntwo\n', 'a.ts': 'const a = 1;\n' },
  });
  client = new Client({ name: 'hashline-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
});
after(async () => {
  await client.close();
  await d.close();
});

const abs = (rel: string) => path.join(d.sandbox.root, rel);
const statOf = async (rel: string) => {
  const st = await fsp.stat(abs(rel));
  return { mode: (st.mode & 0o7777).toString(8), uid: st.uid, gid: st.gid };
};
const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  assert.notEqual(r.isError, true, JSON.stringify(r.content));
  return r;
};

test('HTTP PUT over a setuid/setgid file of this user: the bits are dropped, the rest of the mode kept', async () => {
  await fsp.chmod(abs('put-root.sh'), 0o6755);
  const owner = await statOf('put-root.sh');
  const r = await d.call(`/v1/fs/file?${q({ path: 'put-root.sh' })}`, { method: 'PUT', body: '#!/bin/sh\nnew\n' });
  assert.equal(r.status, 204, await r.text());
  assert.deepEqual(await statOf('put-root.sh'), { ...owner, mode: '755' });
  assert.equal(await fsp.readFile(abs('put-root.sh'), 'utf8'), '#!/bin/sh\nnew\n');
});

test('HTTP PUT over a setuid file of another user: the owner is kept, the bits dropped', async (t) => {
  if (!isRoot) return skipOrFail(t, 'needs root to give a file another owner');
  await fsp.chown(abs('put-other.sh'), 1234, 1234);
  await fsp.chmod(abs('put-other.sh'), 0o6750);
  const r = await d.call(`/v1/fs/file?${q({ path: 'put-other.sh' })}`, { method: 'PUT', body: '#!/bin/sh\nnew\n' });
  assert.equal(r.status, 204, await r.text());
  assert.deepEqual(await statOf('put-other.sh'), { mode: '750', uid: 1234, gid: 1234 });
});

test('fs_write over /mcp (a shebang file, made executable): setuid dropped, owner kept', async () => {
  await fsp.chmod(abs('w.sh'), 0o4644);
  const owner = await statOf('w.sh');
  await call('fs_write', { targets: [{ path: 'w.sh', text: '#!/bin/sh\nnew\n' }] });
  assert.deepEqual(await statOf('w.sh'), { ...owner, mode: '755' });
});

test('fs_edit over /mcp: setgid (with g+x) dropped', async () => {
  await fsp.chmod(abs('e.txt'), 0o2775);
  const owner = await statOf('e.txt');
  const read = await call('fs_read', { targets: [{ path: 'e.txt' }] });
  const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  await call('fs_edit', { targets: [{ path: 'e.txt', file_hash: tag, ops: 'replace 2:\n+TWO' }] });
  assert.equal(await fsp.readFile(abs('e.txt'), 'utf8'), 'one\nTWO\n');
  assert.deepEqual(await statOf('e.txt'), { ...owner, mode: '775' });
});

test('fs_ast_edit over /mcp (the batch writer): setuid dropped', async () => {
  await fsp.chmod(abs('a.ts'), 0o4644);
  const owner = await statOf('a.ts');
  await call('fs_ast_edit', { ops: [{ pat: '1', out: '2' }], paths: ['a.ts'] });
  assert.equal(await fsp.readFile(abs('a.ts'), 'utf8'), 'const a = 2;\n');
  assert.deepEqual(await statOf('a.ts'), { ...owner, mode: '644' });
});
