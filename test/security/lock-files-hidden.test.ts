// Attack: reaching hashline's own lock files through the tools. A lock file lives beside the file
// it locks, so it is in the tree: reading it would show who holds what, writing or removing it
// would break another process's lock. Every face refuses such names (path_blocked), and walks and
// listings leave them out: fs_read / fs_write over MCP, GET / PUT /v1/fs/file, GET /v1/fs/tar,
// a PUT /v1/fs/tar member, and fs_ast_edit's directory walk.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { Parser, type ReadEntry } from 'tar';
import { lockNameFor } from '../../src/core/lock-names.js';
import { lockOf, procStart, recordOf } from '../helpers/locks.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { rawTar } from '../http/tar/raw-tar.js';
import { assertRefusedUntouched } from './tar-attack.js';

/** A lock held by a live process (this test's parent) on src/c.txt, and a family name that looks like source. */
async function plantLocks(root: string): Promise<{ lock: string; decoy: string; record: string }> {
  const file = path.join(root, 'src/c.txt');
  const record = recordOf(process.ppid, procStart(process.ppid), 'c.txt');
  await fsp.writeFile(lockOf(file), record);
  // a name of the lock family (a takeover guard's form) that a walk would otherwise take for TypeScript
  const decoy = `${lockOf(file)}.takeover.x.ts`;
  await fsp.writeFile(decoy, 'console.log(1);\n');
  return { lock: lockOf(file), decoy, record };
}

const rel = (root: string, p: string) => path.relative(root, p);

describe('over MCP (a spawned hashline mcp)', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  let planted: Awaited<ReturnType<typeof plantLocks>>;
  before(async () => {
    sb = await makeSandbox({ 'src/a.ts': 'console.log(0);\n', 'src/b.ts': 'console.log(2);\n', 'src/c.txt': 'c\n' });
    planted = await plantLocks(sb.root);
    mcp = await connectMcp(['--root', sb.root]);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('fs_read and fs_write refuse a lock file with path_blocked; it is neither shown nor changed', async () => {
    const before = await snapshotTree(sb.root);
    for (const p of [rel(sb.root, planted.lock), rel(sb.root, planted.decoy), planted.lock]) {
      const r = await mcp.call('fs_read', { targets: [{ path: p }] });
      assert.match(textOf(r), /names a hashline lock file/, p);
      assert.ok(!textOf(r).includes('start='), 'the lock record was not shown');
      const w = await mcp.call('fs_write', { targets: [{ path: p, text: 'stolen\n' }] });
      assert.match(textOf(w), /names a hashline lock file/, p);
    }
    assert.deepEqual(await snapshotTree(sb.root), before);
    assert.equal(await fsp.readFile(planted.lock, 'utf8'), planted.record);
  });

  test('fs_ast_edit over a directory never walks into a lock file', async () => {
    const r = await mcp.call('fs_ast_edit', { ops: [{ pat: 'console.log($A)', out: 'logger.info($A)' }], paths: ['src'] });
    assert.equal(r.isError, undefined, textOf(r));
    const paths = (r.structuredContent as { results: Array<{ path: string }> }).results.map((x) => x.path).sort();
    assert.deepEqual(paths, ['src/a.ts', 'src/b.ts'], 'the decoy is never a candidate');
    assert.equal(await fsp.readFile(planted.decoy, 'utf8'), 'console.log(1);\n');
    assert.equal(await fsp.readFile(planted.lock, 'utf8'), planted.record);
  });
});

async function listTar(bytes: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  const parser = new Parser({ strict: true, onReadEntry: (e: ReadEntry) => (out.push(e.path.replace(/^\.\//, '')), e.resume()) });
  await pipeline(Readable.from([Buffer.from(bytes)]), parser as unknown as NodeJS.WritableStream);
  return out;
}

describe('over HTTP (hashline serve on loopback)', () => {
  let d: Daemon;
  let planted: Awaited<ReturnType<typeof plantLocks>>;
  before(async () => {
    d = await startDaemon({ files: { 'src/a.ts': 'console.log(0);\n', 'src/b.ts': 'b\n' } });
    planted = await plantLocks(d.sandbox.root);
  });
  after(() => d.close());

  test('GET and PUT /v1/fs/file refuse a lock file with 403 path_blocked', async () => {
    const p = rel(d.sandbox.root, planted.lock);
    const g = await d.call(`/v1/fs/file?${q({ path: p })}`);
    assert.equal(g.status, 403);
    assert.equal(g.headers.get('hashline-error-code'), 'path_blocked');
    assert.ok(!(await g.text()).includes('start='));
    const put = await d.call(`/v1/fs/file?${q({ path: p })}`, { method: 'PUT', body: 'stolen\n' });
    assert.equal(put.status, 403);
    assert.equal(put.headers.get('hashline-error-code'), 'path_blocked');
    assert.equal(await fsp.readFile(planted.lock, 'utf8'), planted.record);
  });

  test('GET /v1/fs/tar never lists a lock file', async () => {
    const r = await d.call(`/v1/fs/tar?${q({ path: 'src' })}`);
    assert.equal(r.status, 200);
    const names = await listTar(new Uint8Array(await r.arrayBuffer()));
    assert.ok(names.includes('a.ts') && names.includes('b.ts'), names.join(','));
    assert.deepEqual(names.filter((n) => n.includes('hashline.lock')), []);
  });

  test('PUT /v1/fs/tar refuses a member named like a lock file, and writes nothing', async () => {
    for (const name of [`src/${lockNameFor('a.ts')}`, `src/${lockNameFor('new.ts')}`, `x/${lockNameFor('y')}/z.txt`]) {
      await assertRefusedUntouched(d, rawTar([{ name: 'ok.txt', type: '0', content: 'fine\n' }, { name, type: '0', content: '1\n' }]), {
        status: 403,
        body: /names a hashline lock file/,
      });
    }
  });
});
