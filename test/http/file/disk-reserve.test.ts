// The free-space reserve on a real, small file system: a 24 MiB tmpfs (few inodes) mounted for the
// test, with an 8 MiB reserve. A 20 MB PUT used to answer 204 and leave 5 MB free (the per-chunk
// check compared free space with the reserve, not with the bytes still to come), and a 20 MB tar
// was checked once before its pre-scan knew the total; a full disk printed the reserve as
// 9007199254740991. Now a write is refused up front from Content-Length or the tar pre-scan,
// re-checked while it streams, and every 507 prints the real reserve. Skipped, with a notice,
// where a tmpfs cannot be mounted (not root, or no mount permission in a container); under CI a failure.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, promises as fsp, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, test, type TestContext } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { createHttpServer } from '../../../src/http/server.js';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { createEngine } from '../../../src/tools/engine.js';
import { ALL_TOOLS } from '../../../src/tools/registry.js';
import { skipOrFail } from '../../helpers/needs.js';
import { q } from '../harness.js';
import { header, rawTar } from '../tar/raw-tar.js';

const MiB = 1024 * 1024;
const RESERVE = 8 * MiB;
const base = mkdtempSync(path.join(os.tmpdir(), 'hashline-reserve-'));
const mnt = path.join(base, 'mnt');
let mounted: string | undefined;
let url = '';
let close: (() => Promise<void>) | undefined;
let root = '';

function tryMount(): string | undefined {
  try {
    execFileSync('mkdir', ['-p', mnt]);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,nr_inodes=100,mode=0755', 'tmpfs', mnt], { stdio: 'pipe' });
    return undefined;
  } catch (e) {
    return `cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]}); the disk-reserve tests need one`;
  }
}

const skipReason = tryMount();
if (skipReason === undefined) mounted = mnt;

function skipIfUnmounted(t: TestContext): boolean {
  if (mounted !== undefined) return false;
  skipOrFail(t, skipReason ?? 'no tmpfs');
  return true;
}

const free = () => {
  const s = statfsSync(root);
  return s.bavail * s.bsize;
};

async function leftovers(): Promise<string[]> {
  return ((await fsp.readdir(root, { recursive: true })) as string[]).filter((f) => f.includes(TEMP_MARKER));
}

/** A body of `size` bytes sent as a stream of 256 KiB chunks with no Content-Length (chunked). */
function chunked(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= size) return c.close();
      const n = Math.min(256 * 1024, size - sent);
      sent += n;
      c.enqueue(new Uint8Array(n).fill(97));
    },
  });
}

const put = (p: string, body: BodyInit, init: RequestInit = {}) =>
  fetch(`${url}/v1/fs/file?${q({ path: p })}`, { method: 'PUT', body, ...init, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit);
const putTar = (dest: string, body: Uint8Array<ArrayBuffer>) => fetch(`${url}/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body });

async function startOn(reserve: number): Promise<void> {
  await close?.();
  const config = mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] });
  const engine = await createEngine(config);
  const { app } = await createHttpServer(engine, { tools: ALL_TOOLS, host: '127.0.0.1', limits: { diskReserveBytes: reserve } });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
}

describe('the disk reserve on a 24 MiB tmpfs', () => {
  before(async () => {
    if (mounted === undefined) return;
    root = path.join(mounted, 'root');
    await fsp.mkdir(root);
    await startOn(RESERVE);
  });
  beforeEach(async () => {
    if (mounted === undefined) return;
    for (const n of await fsp.readdir(root)) await fsp.rm(path.join(root, n), { recursive: true, force: true });
  });
  after(async () => {
    await close?.();
    if (mounted !== undefined) execFileSync('umount', [mounted]);
    rmSync(base, { recursive: true, force: true });
  });

  test('a 20 MB PUT with Content-Length → 507 up front naming the real reserve; nothing written', async (t) => {
    if (skipIfUnmounted(t)) return;
    const before = free();
    const r = await put('big.bin', new Uint8Array(20_000_000));
    const text = await r.text();
    assert.equal(r.status, 507, text);
    assert.match(text, /^refusing to write big\.bin: \d+ bytes available on the target filesystem, and the 20000000 bytes still to come would leave less than the 8388608 byte reserve$/);
    assert.deepEqual(await fsp.readdir(root), []);
    assert.equal(free(), before);
  });

  test('a 20 MB chunked PUT (no length) → 507 once free space nears the reserve; no partial or temporary file', async (t) => {
    if (skipIfUnmounted(t)) return;
    await fsp.writeFile(path.join(root, 'big.bin'), 'old\n');
    const r = await put('big.bin', chunked(20_000_000));
    const text = await r.text();
    assert.equal(r.status, 507, text);
    assert.match(text, /^refusing to write big\.bin: \d+ bytes available on the target filesystem, below the 8388608 byte reserve$/);
    assert.equal(await fsp.readFile(path.join(root, 'big.bin'), 'utf8'), 'old\n');
    assert.deepEqual(await leftovers(), []);
    // it stopped at the reserve, not at a full disk
    const refusedAt = Number(/(\d+) bytes available/.exec(text)![1]);
    assert.ok(refusedAt >= RESERVE - 2 * MiB, `refused only at ${refusedAt} bytes free`);
  });

  test('a 10 MB PUT that leaves more than the reserve lands', async (t) => {
    if (skipIfUnmounted(t)) return;
    const r = await put('ok.bin', new Uint8Array(10_000_000));
    assert.equal(r.status, 204, await r.text());
    assert.equal((await fsp.stat(path.join(root, 'ok.bin'))).size, 10_000_000);
    assert.ok(free() >= RESERVE);
  });

  test('a tar with a 20 MB member → 507 from the pre-scan total before any member; nothing written', async (t) => {
    if (skipIfUnmounted(t)) return;
    const archive = rawTar([
      { name: 'small.txt', type: '0', content: 'first member\n' },
      { name: 'big.bin', type: '0', content: new Uint8Array(20_000_000) },
    ]);
    const before = free();
    const r = await putTar(path.join(root, 'x'), archive);
    const text = await r.text();
    assert.equal(r.status, 507, text);
    assert.match(text, /^refusing to write x: \d+ bytes available on the target filesystem, and the 20000013 bytes still to come would leave less than the 8388608 byte reserve$/);
    assert.deepEqual(await fsp.readdir(root), []);
    assert.equal(free(), before);
  });

  test('three 6 MB members (none too big alone) → 507 from the total; a 10 MB archive lands', async (t) => {
    if (skipIfUnmounted(t)) return;
    const six = new Uint8Array(6_000_000);
    const refused = await putTar(path.join(root, 'x'), rawTar(['a', 'b', 'c'].map((n) => ({ name: `${n}.bin`, type: '0' as const, content: six }))));
    assert.equal(refused.status, 507, await refused.text());
    assert.deepEqual(await fsp.readdir(root), []);
    const ok = await putTar(path.join(root, 'y'), rawTar(['a', 'b'].map((n) => ({ name: `${n}.bin`, type: '0' as const, content: new Uint8Array(5_000_000) }))));
    assert.equal(ok.status, 204, await ok.text());
    assert.deepEqual((await fsp.readdir(path.join(root, 'y'))).sort(), ['a.bin', 'b.bin']);
  });

  test('a tar whose archived sizes understate what lands (out of inodes) → 507 with the real reserve, never 9007199254740991', async (t) => {
    if (skipIfUnmounted(t)) return;
    // 150 one-byte files on a file system with 100 inodes: the bytes fit, the files do not
    const parts: Buffer[] = [];
    for (let i = 0; i < 150; i++) parts.push(header({ name: `f${i}.txt`, type: '0' }, 1), Buffer.from('x'), Buffer.alloc(511));
    parts.push(Buffer.alloc(1024));
    const r = await putTar(path.join(root, 'many'), new Uint8Array(Buffer.concat(parts)));
    const text = await r.text();
    assert.equal(r.status, 507, text);
    assert.doesNotMatch(text, /9007199254740991/);
    assert.match(text, /^refusing to write many: the target filesystem refused the write as full \(out of space, inodes or quota\) with \d+ bytes available and a 8388608 byte reserve$/);
    assert.deepEqual(await leftovers(), []);
  });

  test('with no reserve, a chunked PUT that fills the disk → 507 naming a 0 byte reserve; nothing left', async (t) => {
    if (skipIfUnmounted(t)) return;
    await startOn(0);
    try {
      const r = await put('fill.bin', chunked(30 * MiB));
      const text = await r.text();
      assert.equal(r.status, 507, text);
      assert.match(text, /^refusing to write fill\.bin: the target filesystem refused the write as full .* with \d+ bytes available and a 0 byte reserve$/);
      assert.deepEqual(await fsp.readdir(root), []);
    } finally {
      await startOn(RESERVE);
    }
  });
});
