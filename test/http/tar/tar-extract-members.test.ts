// PUT /v1/fs/tar writes each member itself, in archive order: files through a temp file and a
// rename, links renamed into place, directory modes last. A 64 MiB member streams through without
// being held in memory, and `hashline serve` killed mid-extraction leaves every member either absent,
// as it was, or complete, with no temp file once hashline has started again.

import assert from 'node:assert/strict';
import { createReadStream, promises as fsp } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { isLockName } from '../../../src/core/lock-names.js';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { resolveLimits } from '../../../src/http/limits.js';
import { extractTarFromRequest } from '../../../src/http/tar/tar-extract.js';
import { createEngine } from '../../../src/tools/engine.js';
import { startDaemon as startServe, STRESS_TOKEN, stopChild } from '../../../test-stress/lib/daemon.js';
import { makeSandbox, snapshotTree } from '../../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../harness.js';
import { header, rawTar } from './raw-tar.js';

const MiB = 1024 * 1024;
/** Live memory the extraction of a 64 MiB member may add (a member held whole would add 64 MiB). */
const LIVE_LIMIT = 24 * MiB;

/** Bytes `start..start+size` of a member: a counter pattern, so a torn or shifted copy never matches. */
function pattern(size: number, seed: number, start = 0): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) b.writeUInt32LE((Math.imul(start + i, 0x9e3779b1) + seed) >>> 0, i);
  return b;
}

/** A full collection where the flag can be set at run time (node:test passes no --expose-gc). */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Writes an archive to `file` chunk by chunk (the test never holds a big member whole). */
async function writeArchive(file: string, members: Array<{ name: string; size: number; seed: number }>): Promise<void> {
  const h = await fsp.open(file, 'w');
  try {
    for (const m of members) {
      await h.write(header({ name: m.name, type: '0' }, m.size));
      for (let off = 0; off < m.size; off += 4 * MiB) await h.write(pattern(Math.min(4 * MiB, m.size - off), m.seed, off));
      await h.write(Buffer.alloc((512 - (m.size % 512)) % 512));
    }
    await h.write(Buffer.alloc(1024));
  } finally {
    await h.close();
  }
}

describe('PUT /v1/fs/tar member by member', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'keep.txt': 'keep\n' } });
  });
  after(() => d.close());
  const put = (dest: string, body: Uint8Array<ArrayBuffer>) => d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body });

  test('files, directories, symbolic and hard links; directory modes (with u+rwx) applied last, never to the root; a second extraction replaces links, never follows them', async () => {
    const dest = path.join(d.sandbox.root, 'x');
    await fsp.mkdir(dest, { mode: 0o711 });
    await fsp.chmod(dest, 0o711);
    const archive = rawTar([
      { name: './', type: '5', mode: 0o750 },
      { name: 'ro/', type: '5', mode: 0o555 },
      { name: 'ro/inner/', type: '5', mode: 0o700 },
      { name: 'ro/inner/f.txt', type: '0', content: 'f\n', mode: 0o640 },
      { name: 'ln', type: '2', linkname: 'ro/inner/f.txt' },
      { name: 'hard', type: '1', linkname: 'ro/inner/f.txt' },
    ]);
    for (let round = 0; round < 2; round++) {
      const r = await put(dest, archive);
      assert.equal(r.status, 204, await r.text());
      const snap = await snapshotTree(dest);
      assert.equal(snap.get('ro'), 'dir:755');
      assert.equal(snap.get('ro/inner'), 'dir:700');
      assert.equal(snap.get('ro/inner/f.txt'), `file:640:${Buffer.from('f\n').toString('base64')}`);
      assert.equal(snap.get('ln'), 'link:ro/inner/f.txt');
      assert.equal((await fsp.stat(path.join(dest, 'hard'))).ino, (await fsp.stat(path.join(dest, 'ro/inner/f.txt'))).ino);
      assert.equal((await fsp.stat(dest)).mode & 0o7777, 0o711);
      assert.ok(![...snap.keys()].some((k) => k.includes(TEMP_MARKER)), [...snap.keys()].join(','));
    }
  });

  test('a file member where a symbolic link stands replaces the link; the link target is untouched', async () => {
    const dest = path.join(d.sandbox.root, 'y');
    await fsp.mkdir(dest);
    await fsp.symlink('../keep.txt', path.join(dest, 'f.txt'));
    const r = await put(dest, rawTar([{ name: 'f.txt', type: '0', content: 'new\n' }]));
    assert.equal(r.status, 204, await r.text());
    assert.equal((await fsp.lstat(path.join(dest, 'f.txt'))).isFile(), true);
    assert.equal(await fsp.readFile(path.join(dest, 'f.txt'), 'utf8'), 'new\n');
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'keep.txt'), 'utf8'), 'keep\n');
  });
});

describe('a 64 MiB member', () => {
  test('lands whole without being held in memory (backpressure from the write to the parser)', async (t) => {
    const sandbox = await makeSandbox({});
    try {
      const engine = await createEngine(mergeConfig({ root: sandbox.root, allow: [], block: [], readAllow: [], readBlock: [] }));
      const file = path.join(sandbox.base, 'big.tar');
      const size = 64 * MiB;
      await writeArchive(file, [{ name: 'big.bin', size, seed: 7 }]);
      const req = Object.assign(createReadStream(file), { headers: {}, complete: true }) as unknown as IncomingMessage;
      // Live memory while the archive is spooled, checked and written: memory is read every 25 ms
      // (cheap), and whenever it has grown by more than a quarter of the limit, full collections
      // tell live bytes from garbage; the peak is of live bytes only (a full collection every
      // 25 ms made this test take minutes). A member held whole would stay live through them.
      // Two collections: the first frees array buffers on a background thread, the second waits
      // for it (after one, a buffer already dead could still count, up to 28 MiB).
      const once = collector();
      const gc = () => {
        once();
        once();
      };
      gc();
      const base = process.memoryUsage();
      const grown = () => {
        const m = process.memoryUsage();
        return m.arrayBuffers - base.arrayBuffers + m.heapUsed - base.heapUsed;
      };
      let peak = 0;
      let collections = 0;
      const sample = setInterval(() => {
        if (grown() <= LIVE_LIMIT / 4) return;
        gc();
        collections++;
        peak = Math.max(peak, grown());
      }, 25);
      try {
        await extractTarFromRequest(engine, resolveLimits({ diskReserveBytes: 0, maxBodyBytes: 128 * MiB }), { path: path.join(sandbox.root, 'out') }, req);
      } finally {
        clearInterval(sample);
      }
      const got = await fsp.open(path.join(sandbox.root, 'out/big.bin'));
      try {
        assert.equal((await got.stat()).size, size);
        const chunk = Buffer.alloc(4 * MiB);
        for (let off = 0; off < size; off += chunk.length) {
          await got.read(chunk, 0, chunk.length, off);
          assert.ok(chunk.equals(pattern(chunk.length, 7, off)), `bytes differ at ${off}`);
        }
      } finally {
        await got.close();
      }
      t.diagnostic(`live memory grew by at most ${(peak / MiB).toFixed(1)} MiB (${collections} collections while extracting)`);
      assert.ok(peak < LIVE_LIMIT, `memory grew by ${(peak / MiB).toFixed(1)} MiB while extracting a 64 MiB member`);
    } finally {
      await sandbox.cleanup();
    }
  });
});

describe('hashline serve killed mid-extraction', () => {
  test('every member is absent, as it was, or complete; no temp file survives a restart', async () => {
    const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-tar-kill-')));
    try {
      const root = path.join(base, 'root');
      const dest = path.join(root, 't');
      await fsp.mkdir(path.join(dest, 'sub'), { recursive: true });
      const members = [
        { name: 'a.bin', size: 3 * MiB, seed: 1 },
        { name: 'sub/big.bin', size: 40 * MiB, seed: 2 },
        { name: 'b.bin', size: 24 * MiB, seed: 3 },
        { name: 'sub/c.txt', size: 1000, seed: 4 },
      ];
      const old = new Map(members.map((m) => [m.name, pattern(1234, 100 + m.seed)]));
      const whole = new Map(members.map((m) => [m.name, pattern(m.size, m.seed)]));
      const archive = path.join(base, 'a.tar');
      await writeArchive(archive, members);
      const body = await fsp.readFile(archive);
      for (let trial = 0; trial < 3; trial++) {
        for (const [name, bytes] of old) await fsp.writeFile(path.join(dest, name), bytes);
        const serve = await startServe(root);
        const sent = fetch(`${serve.url}/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', headers: { authorization: `Bearer ${STRESS_TOKEN}` }, body }).catch(() => undefined);
        // Kill while a member is being written (its temp file is there): early in it, then later on.
        const want = [1, 10, 40][trial]!;
        let seen = 0;
        for (let i = 0; i < 4000 && seen < want; i++) {
          const names = [...(await fsp.readdir(dest)), ...(await fsp.readdir(path.join(dest, 'sub')))];
          if (names.some((n) => n.includes(TEMP_MARKER))) seen++;
          await new Promise((r) => setTimeout(r, 2));
        }
        await stopChild(serve.child, 'SIGKILL');
        await sent;
        assert.ok(seen > 0, `trial ${trial}: no member was being written when killed`);
        const snap = await snapshotTree(dest);
        for (const [rel, entry] of snap) {
          // (the lock of the member being written stays beside it after the kill, until a restart)
          if (entry.startsWith('dir:') || rel.includes(TEMP_MARKER) || isLockName(path.basename(rel))) continue;
          const bytes = await fsp.readFile(path.join(dest, rel));
          assert.ok(bytes.equals(old.get(rel)!) || bytes.equals(whole.get(rel)!), `trial ${trial}: ${rel} is torn (${bytes.length} bytes)`);
        }
        const again = await startServe(root);
        await stopChild(again.child);
        const left = [...(await snapshotTree(dest)).keys()].filter((k) => k.includes(TEMP_MARKER) || isLockName(path.basename(k)));
        assert.deepEqual(left, [], `trial ${trial}: temp or lock files left after a restart`);
      }
    } finally {
      await fsp.rm(base, { recursive: true, force: true });
    }
  });
});
