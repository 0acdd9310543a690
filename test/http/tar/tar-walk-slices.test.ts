// The walk of GET /v1/fs/tar packs slices of files on two threads (tar-walk-slices.ts,
// tar-read-pool.ts): the archive is the same whichever thread packs which slice, or when the read
// thread loses every slice (each is packed again by the walk); no descriptor is left open and no
// slice left with the thread, after a whole walk, after a walk stopped by the byte cap part way, and
// after a client that goes away in the middle of the archive.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fsp, readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HashlineError } from '../../../src/core/errors/errors.js';
import { PrefetchHold } from '../../../src/http/tar/prefetch-budget.js';
import type { FileSlice } from '../../../src/http/tar/tar-pack-files.js';
import { tarReadPool, TarReadPool, type SliceOutcome } from '../../../src/http/tar/tar-read-pool.js';
import { walkTree } from '../../../src/http/tar/tar-walk.js';
import { TreeTarStream } from '../../../src/http/tar/tar-writer.js';
import { type Daemon, q, startDaemon } from '../harness.js';

const openFds = () => readdirSync('/proc/self/fd').length;

/** A pool with no thread: every slice is packed by the walk itself. */
class NoThread extends TarReadPool {
  override submit(_slice: FileSlice): number {
    return -1;
  }
}

/** A pool whose thread loses every slice it is given (as when it dies): the walk packs each again. */
class LosesAll extends TarReadPool {
  submitted = 0;
  private ids: number[] = [];
  override submit(_slice: FileSlice): number {
    this.ids.push(++this.submitted);
    return this.submitted;
  }
  override take(id: number): SliceOutcome {
    return this.ids.includes(id) ? 'lost' : undefined;
  }
}

async function archiveOf(d: Daemon, tree: string, pool: TarReadPool, caps = { maxTarMembers: 10_000, maxTarBytes: 1 << 30 }): Promise<string> {
  const hold = new PrefetchHold(64 << 20);
  const h = createHash('sha256');
  for await (const c of new TreeTarStream(await walkTree(d.engine.guard, tree, 'tree', caps, hold, pool), d.engine.guard, hold)) h.update(c as Buffer);
  assert.equal(hold.holding, 0);
  return h.digest('hex');
}

describe('GET /v1/fs/tar: slices packed on two threads', () => {
  let d: Daemon;
  let tree: string;
  before(async () => {
    d = await startDaemon({ limits: { maxTarMembers: 10_000 } });
    tree = path.join(await fsp.realpath(d.sandbox.root), 'tree');
    // 6 directories of 150 files (several slices each), sizes from empty to past the read-ahead limit
    for (let k = 0; k < 6; k++) {
      await fsp.mkdir(path.join(tree, `d${k}`), { recursive: true });
      for (let i = 0; i < 150; i++) {
        const size = i === 7 ? 300 * 1024 : (i * 37 + k * 11) % 3000;
        await fsp.writeFile(path.join(tree, `d${k}`, `f${String(i).padStart(3, '0')}`), Buffer.alloc(size, (i + k) & 0xff));
      }
    }
  });
  after(() => d.close());

  test('the same archive from the read thread, from the walk alone, and when the thread loses every slice', async () => {
    assert.ok(await tarReadPool.warm(), 'the read thread starts');
    await archiveOf(d, tree, tarReadPool); // the thread's own descriptors opened before counting
    const before = openFds();
    const handed = tarReadPool.submittedCount;
    const threaded = await archiveOf(d, tree, tarReadPool);
    assert.ok(tarReadPool.submittedCount > handed, 'slices were handed to the read thread');
    const alone = await archiveOf(d, tree, new NoThread());
    const lossy = new LosesAll();
    const redone = await archiveOf(d, tree, lossy);
    assert.equal(threaded, alone);
    assert.equal(redone, alone);
    assert.ok(lossy.submitted > 0, 'slices were handed to the (losing) thread');
    assert.equal(tarReadPool.inFlightCount, 0);
    assert.equal(openFds(), before);
  });

  test('names the read thread is sent in one string come back whole: odd names in nested directories, listed by GNU tar', async () => {
    // names with a space, a newline, a tab, a backslash and non-ASCII, two levels down (the thread rebuilds each archive name from the directory's part)
    const odd = path.join(tree, 'sub dir', 'ünï ☃');
    await fsp.mkdir(odd, { recursive: true });
    const names: string[] = [];
    for (let i = 0; i < 70; i++) names.push([`f ${i}`, `n\n${i}`, `t\t${i}`, `b\\${i}`, `ß€${i}.txt`][i % 5]!);
    for (const n of names) await fsp.writeFile(path.join(odd, n), `content of ${n}`);
    try {
      assert.ok(await tarReadPool.warm(), 'the read thread starts');
      const handed = tarReadPool.submittedCount;
      const hold = new PrefetchHold(64 << 20);
      const chunks: Buffer[] = [];
      for await (const c of new TreeTarStream(await walkTree(d.engine.guard, tree, 'tree', { maxTarMembers: 10_000, maxTarBytes: 1 << 30 }, hold, tarReadPool), d.engine.guard, hold)) chunks.push(c as Buffer);
      assert.ok(tarReadPool.submittedCount > handed, 'slices were handed to the read thread');
      const archive = Buffer.concat(chunks);
      assert.equal(createHash('sha256').update(archive).digest('hex'), await archiveOf(d, tree, new NoThread()));
      const out = path.join(d.sandbox.root, '..', 'odd-out');
      await fsp.mkdir(out, { recursive: true });
      const x = spawnSync('tar', ['-xf', '-', '-C', out], { input: archive });
      assert.equal(x.status, 0, String(x.stderr));
      for (const n of names) assert.equal(await fsp.readFile(path.join(out, 'sub dir', 'ünï ☃', n), 'utf8'), `content of ${n}`);
      await fsp.rm(out, { recursive: true });
    } finally {
      await fsp.rm(path.join(tree, 'sub dir'), { recursive: true });
    }
  });

  test('a walk stopped by the byte cap part way leaves no descriptor open and no slice with the thread', async () => {
    const before = openFds();
    for (let i = 0; i < 3; i++) {
      await assert.rejects(archiveOf(d, tree, tarReadPool, { maxTarMembers: 10_000, maxTarBytes: 600_000 }), (e: unknown) => e instanceof HashlineError && e.code === 'too_large');
    }
    assert.equal(tarReadPool.inFlightCount, 0);
    assert.equal(openFds(), before);
  });

  test('a client that goes away in the middle of the archive: no descriptor left open', async () => {
    // one big file left for the writer keeps the archive going after the walk
    await fsp.writeFile(path.join(tree, 'd0', 'zbig'), Buffer.alloc(48 << 20, 1));
    try {
      await d.call(`/v1/fs/tar?${q({ path: 'tree' })}`).then((r) => r.arrayBuffer()); // warm: the thread and the server's own descriptors
      const before = openFds();
      const url = new URL(`${d.url}/v1/fs/tar?${q({ path: 'tree' })}`);
      await new Promise<void>((resolve, reject) => {
        const req = http.get(url, (res) => {
          let got = 0;
          res.on('data', (c: Buffer) => {
            got += c.length;
            if (got > 2 << 20) {
              req.destroy();
              resolve();
            }
          });
          res.on('end', () => reject(new Error('the archive ended before the client went away')));
        });
        req.on('error', () => resolve());
      });
      // the server notices the closed socket on its next write: wait for its descriptors to come back
      let now = openFds();
      for (let i = 0; i < 200 && now !== before; i++) {
        await new Promise((r) => setTimeout(r, 25));
        now = openFds();
      }
      assert.equal(now, before);
      assert.equal(tarReadPool.inFlightCount, 0);
    } finally {
      await fsp.rm(path.join(tree, 'd0', 'zbig'));
    }
  });
});
