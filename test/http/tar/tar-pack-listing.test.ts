// GET /v1/fs/tar packs while it sends (tar-pack-listing.ts): the listing (caps, sizes) comes
// before the status line, each file is opened and read when the packing reaches it. A file that
// changed after the listing is archived as it is when it is opened (its new size in its header),
// one removed is left out; the member order is the listing's (depth first, names sorted), the same
// as GNU tar lists it back.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { TAR_PREFETCH_BYTES, tarPrefetch } from '../../../src/http/tar/prefetch-budget.js';
import { tarReadPool } from '../../../src/http/tar/tar-read-pool.js';
import { q, startDaemon } from '../harness.js';

function extract(archive: Buffer, into: string): void {
  const x = spawnSync('tar', ['-xf', '-', '-C', into], { input: archive, maxBuffer: 1 << 30 });
  assert.equal(x.status, 0, String(x.stderr));
}

describe('GET /v1/fs/tar packs while it sends', () => {
  test('files changed or removed after the first bytes were sent: archived as they are when their turn comes', async () => {
    // 24 MiB of files small enough to be packed ahead (whole slices of them), before the files that
    // change: more than the socket's buffers and the packing's lead (tar-writer.ts AHEAD_BYTES) take
    const files: Record<string, string | Buffer> = {};
    for (let i = 0; i < 3000; i++) files[`t/a/f${String(i).padStart(4, '0')}.bin`] = randomBytes(8 * 1024);
    files['t/z/grow.txt'] = 'small\n';
    files['t/z/shrink.txt'] = 's'.repeat(5000);
    files['t/z/gone.txt'] = 'gone\n';
    files['t/z/same.txt'] = 'same\n';
    const d = await startDaemon({ files });
    const ac = new AbortController();
    try {
      const r = await d.call(`/v1/fs/tar?${q({ path: 't' })}`, { signal: ac.signal });
      assert.equal(r.status, 200);
      const reader = r.body!.getReader();
      const chunks: Buffer[] = [];
      const first = await reader.read();
      chunks.push(Buffer.from(first.value!));
      const z = path.join(d.sandbox.root, 't/z');
      const grown = 'G'.repeat(70_000);
      await fsp.writeFile(path.join(z, 'grow.txt'), grown);
      await fsp.writeFile(path.join(z, 'shrink.txt'), 'abc');
      await fsp.rm(path.join(z, 'gone.txt'));
      for (let c = await reader.read(); !c.done; c = await reader.read()) chunks.push(Buffer.from(c.value));
      const out = path.join(d.sandbox.base, 'out');
      await fsp.mkdir(out);
      extract(Buffer.concat(chunks), out);
      assert.equal(await fsp.readFile(path.join(out, 'z/grow.txt'), 'utf8'), grown);
      assert.equal(await fsp.readFile(path.join(out, 'z/shrink.txt'), 'utf8'), 'abc');
      assert.equal(await fsp.readFile(path.join(out, 'z/same.txt'), 'utf8'), 'same\n');
      await assert.rejects(fsp.access(path.join(out, 'z/gone.txt')));
      for (let i = 0; i < 3000; i++) {
        const rel = `a/f${String(i).padStart(4, '0')}.bin`;
        assert.ok((await fsp.readFile(path.join(out, rel))).equals(files[`t/${rel}`] as Buffer), rel);
      }
      assert.equal(tarPrefetch.available, TAR_PREFETCH_BYTES, 'everything read ahead was given back');
    } finally {
      ac.abort();
      await d.close();
    }
  });

  test('a client that goes away while the tree is listed or the first slices are packed: everything given back, no descriptor open', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 6000; i++) files[`t/d${i % 60}/f${i}.txt`] = 'x'.repeat(3000);
    const d = await startDaemon({ files, limits: { maxTarMembers: 100_000 } });
    try {
      await (await d.call(`/v1/fs/tar?${q({ path: 't' })}`)).arrayBuffer(); // warm: the thread and the server's own descriptors
      const fds = () => readdirSync('/proc/self/fd').length;
      const before = fds();
      // at most as many as before: the warm GET's kept-alive sockets (client and server side, this one
      // process) may close meanwhile, so the count can fall by them; a descriptor left open by an
      // aborted archive adds up over the four aborts
      const settled = () => tarPrefetch.available === TAR_PREFETCH_BYTES && fds() <= before && tarReadPool.inFlightCount === 0;
      // the abort lands during the listing (the packing already started), around the status line, or mid-archive
      for (const ms of [2, 5, 8, 12]) {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), ms);
        await d.call(`/v1/fs/tar?${q({ path: 't' })}`, { signal: ac.signal }).then((r) => r.arrayBuffer(), () => undefined).catch(() => undefined);
        // the server sees the socket close when the client drops it (fetch may keep it a few seconds)
        const until = Date.now() + 10_000;
        while (!settled() && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
        assert.equal(tarPrefetch.available, TAR_PREFETCH_BYTES, `abort at ${ms} ms: the read-ahead given back`);
        assert.ok(fds() <= before, `abort at ${ms} ms: no descriptor left open (${fds()} open, ${before} before)`);
        assert.equal(tarReadPool.inFlightCount, 0);
      }
    } finally {
      await d.close();
    }
  });

  test('the member order is the listing: depth first, names sorted, files, links and directories interleaved', async () => {
    const files: Record<string, string> = {};
    // more files in a directory than a slice holds, a subdirectory between them, two levels down
    for (let i = 0; i < 70; i++) files[`t/d/f${String(i).padStart(2, '0')}`] = `${i}\n`;
    files['t/d/e5/x'] = 'x\n';
    files['t/d/e5/y/z'] = 'z\n';
    files['t/b.txt'] = 'b\n';
    files['t/c/k'] = 'k\n';
    const d = await startDaemon({ files, limits: { maxTarMembers: 1000 } });
    try {
      await fsp.symlink('b.txt', path.join(d.sandbox.root, 't/a-link'));
      const archive = Buffer.from(await (await d.call(`/v1/fs/tar?${q({ path: 't' })}`)).arrayBuffer());
      const listed = spawnSync('tar', ['-tf', '-'], { input: archive, encoding: 'utf8' }).stdout.split('\n').filter((l) => l !== '');
      const dNames = [...Array.from({ length: 70 }, (_, i) => `f${String(i).padStart(2, '0')}`), 'e5'].sort();
      const expected = [
        './',
        './a-link',
        './b.txt',
        './c/',
        './d/',
        './c/k',
        ...dNames.map((n) => (n === 'e5' ? './d/e5/' : `./d/${n}`)),
        './d/e5/x',
        './d/e5/y/',
        './d/e5/y/z',
      ];
      assert.deepEqual(listed, expected);
    } finally {
      await d.close();
    }
  });
});
