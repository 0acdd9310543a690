// PUT /v1/fs/tar's member writer: a small member is read into memory and written from that buffer
// (no stream), and that buffer is the history's copy: each member's new bytes are logged and what
// it replaced is restorable; in `fsync` durability every file and every directory written into is
// flushed before the reply, in `atomic` mode nothing is. Real HTTP on loopback, fsync counted on
// node:fs itself (as test/io/durability.test.ts does).

import assert from 'node:assert/strict';
import fs, { promises as fsp } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { callTool } from '../../../src/api/call-tool.js';
import { mergeConfig } from '../../../src/core/config/config.js';
import { createHttpServer } from '../../../src/http/server.js';
import { createEngine } from '../../../src/tools/engine.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { ALL_TOOLS } from '../../../src/tools/registry.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';
import { q, startDaemon } from '../harness.js';
import { rawTar } from './raw-tar.js';

let fileSyncs = 0;
let dirOpens: string[] = [];
const originalFsync = fs.fsync;
const originalOpen = fsp.open;
before(() => {
  (fs as { fsync: typeof fs.fsync }).fsync = ((fd: number, cb: (e: NodeJS.ErrnoException | null) => void) => {
    fileSyncs++;
    return originalFsync(fd, cb);
  }) as typeof fs.fsync;
  syncBuiltinESMExports();
  (fsp as { open: typeof fsp.open }).open = ((p: fs.PathLike, flags?: string | number, mode?: fs.Mode) => {
    if (typeof flags === 'number' && (flags & fs.constants.O_DIRECTORY) !== 0) dirOpens.push(String(p));
    return originalOpen(p, flags, mode);
  }) as typeof fsp.open;
});
after(() => {
  (fs as { fsync: typeof fs.fsync }).fsync = originalFsync;
  syncBuiltinESMExports();
  (fsp as { open: typeof fsp.open }).open = originalOpen;
});

const MEMBERS = [
  { name: 'a.txt', type: '0' as const, content: 'one\n' },
  { name: 'sub', type: '5' as const },
  { name: 'sub/b.txt', type: '0' as const, content: 'two\n' },
  { name: 'sub/deep/c.bin', type: '0' as const, content: new Uint8Array([0, 1, 2, 255]) },
];

test('small members: each file written from memory, its bytes logged, what it replaced rolled back', async () => {
  const d = await startDaemon({ files: { 'dest/a.txt': 'before\n' } });
  try {
    const dest = path.join(d.sandbox.root, 'dest');
    const r = await d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: rawTar(MEMBERS) });
    assert.equal(r.status, 204, await r.text());
    const query = d.engine.history.query!;
    for (const m of MEMBERS.filter((x) => x.type === '0')) {
      const real = path.join(dest, m.name);
      const want = Buffer.from(m.content as string | Uint8Array);
      assert.deepEqual(await fsp.readFile(real), want, `${m.name} on disk`);
      const made = (await query.timeline(real)).find((e) => e.op === 'made');
      assert.ok(made, `${m.name} logged as made`);
      assert.deepEqual(Buffer.from((await query.content(made.id))!.bytes), want, `${m.name}: the logged bytes are the member's`);
    }
    const seen = (await query.timeline(path.join(dest, 'a.txt'))).find((e) => e.op === 'seen');
    assert.equal(Buffer.from((await query.content(seen!.id))!.bytes).toString('utf8'), 'before\n', 'the replaced content is kept');
    // and fs_rollback gives it back
    const back = await callTool(d.engine, fsRollbackTool, { path: 'dest/a.txt', hash: seen!.tag! });
    assert.equal(back.ok, true, back.text);
    assert.equal(await fsp.readFile(path.join(dest, 'a.txt'), 'utf8'), 'before\n');
  } finally {
    await d.close();
  }
});

async function putIn(durability: 'atomic' | 'fsync'): Promise<{ files: number; dirs: string[] }> {
  const sandbox = await makeSandbox({});
  const engine = await createEngine(mergeConfig({ root: sandbox.root, allow: [], block: [], readAllow: [], readBlock: [], durability }));
  const { app } = await createHttpServer(engine, { tools: ALL_TOOLS, host: '127.0.0.1', limits: { diskReserveBytes: 0 } });
  try {
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const dest = path.join(sandbox.root, 'dest');
    fileSyncs = 0;
    dirOpens = [];
    const r = await fetch(`${url}/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: rawTar(MEMBERS) });
    assert.equal(r.status, 204, await r.text());
    assert.equal(await fsp.readFile(path.join(dest, 'sub/deep/c.bin'), 'latin1'), '\u0000\u0001\u0002\u00ff');
    return { files: fileSyncs, dirs: dirOpens.map((p) => path.relative(sandbox.root, p)).sort() };
  } finally {
    await app.close();
    await sandbox.cleanup();
  }
}

test('fsync durability flushes every file member and each directory written into; atomic flushes nothing', async () => {
  const atomic = await putIn('atomic');
  assert.equal(atomic.files, 0, 'atomic: no file flushed');
  assert.deepEqual(atomic.dirs, [], 'atomic: no directory flushed');
  const durable = await putIn('fsync');
  assert.equal(durable.files, 3, 'fsync: each of the three file members');
  assert.deepEqual(durable.dirs, ['dest', 'dest/sub', 'dest/sub/deep']);
});
