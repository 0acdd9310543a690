// GET and PUT /v1/fs/tar over real HTTP on loopback: a round trip through both routes, links kept
// as links and never followed, block-listed members left out, caps, and the statuses of the spec.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { Parser, type ReadEntry } from 'tar';
import { TAR_PREFETCH_BYTES, tarPrefetch } from '../../../src/http/tar/prefetch-budget.js';
import { tarReadPool } from '../../../src/http/tar/tar-read-pool.js';
import { snapshotTree } from '../../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../harness.js';
import { rawTar } from './raw-tar.js';

interface Listed {
  path: string;
  type: string;
  linkpath: string | undefined;
  body: string;
}

/** Polls `ok` every 20 ms for up to 5 s. */
async function waitFor(ok: () => boolean): Promise<void> {
  const until = Date.now() + 5000;
  while (!ok() && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
}

async function listTar(bytes: Uint8Array): Promise<Listed[]> {
  const out: Listed[] = [];
  const parser = new Parser({
    strict: true,
    onReadEntry: (e: ReadEntry) => {
      const item: Listed = { path: e.path, type: e.type, linkpath: e.linkpath, body: '' };
      out.push(item);
      e.on('data', (c: Buffer) => (item.body += c.toString()));
    },
  });
  await pipeline(Readable.from([Buffer.from(bytes)]), parser as unknown as NodeJS.WritableStream);
  return out;
}

describe('GET /v1/fs/tar', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({
      files: { 'tree/a.txt': 'a\n', 'tree/sub/b.txt': 'b\n', 'tree/private/key.txt': 'KEY\n', 'file.txt': 'f\n' },
      block: ['tree/private'],
      limits: { maxTarMembers: 1000 },
    });
    await fsp.symlink('a.txt', path.join(d.sandbox.root, 'tree/link'));
    await fsp.symlink(d.sandbox.outside, path.join(d.sandbox.root, 'tree/out'));
  });
  after(() => d.close());

  test('an uncompressed tar; links archived as links; block-listed members left out', async () => {
    const r = await d.call(`/v1/fs/tar?${q({ path: 'tree' })}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/x-tar');
    const members = await listTar(new Uint8Array(await r.arrayBuffer()));
    const byPath = new Map(members.map((m) => [m.path.replace(/^\.\//, ''), m]));
    assert.equal(byPath.get('a.txt')?.body, 'a\n');
    assert.equal(byPath.get('sub/b.txt')?.body, 'b\n');
    assert.deepEqual([byPath.get('link')?.type, byPath.get('link')?.linkpath], ['SymbolicLink', 'a.txt']);
    assert.deepEqual([byPath.get('out')?.type, byPath.get('out')?.linkpath], ['SymbolicLink', d.sandbox.outside]);
    assert.ok(![...byPath.keys()].some((k) => k.startsWith('private')), [...byPath.keys()].join(','));
    assert.ok(!members.some((m) => m.body.includes('TOP SECRET') || m.body.includes('KEY')));
  });

  const ROWS: Array<[string, string, number, string | RegExp]> = [
    ['a file', 'file.txt', 400, 'path is not a directory; use /v1/fs/file'],
    ['a missing directory', 'nope', 404, 'no such directory'],
    ['outside the root', '../outside', 403, /^permission denied: /],
    ['through a link out', 'tree/out', 403, /^permission denied: /],
    ['a block-listed directory', 'tree/private', 403, /^permission denied: /],
  ];
  for (const [name, p, status, body] of ROWS) {
    test(`${name} → ${status}`, async () => {
      const r = await d.call(`/v1/fs/tar?${q({ path: p })}`);
      assert.equal(r.status, status);
      const text = await r.text();
      if (typeof body === 'string') assert.equal(text, body);
      else assert.match(text, body);
    });
  }

  test('missing path → 400', async () => {
    const r = await d.call('/v1/fs/tar');
    assert.equal(r.status, 400);
    assert.equal(await r.text(), 'path query parameter is required');
  });
});

describe('GET /v1/fs/tar of long names and large files', () => {
  test('a 200-character path (pax) and a 3 MiB file survive; system tar reads the archive', async () => {
    const longName = `${'n'.repeat(120)}/${'m'.repeat(79)}.txt`;
    const large = Buffer.alloc(3 * 1024 * 1024 + 123, 7);
    const d = await startDaemon({ files: { [`t/${longName}`]: 'long\n', 't/large.bin': large } });
    try {
      const r = await d.call(`/v1/fs/tar?${q({ path: 't' })}`);
      const bytes = new Uint8Array(await r.arrayBuffer());
      const members = await listTar(bytes);
      const byPath = new Map(members.map((m) => [m.path.replace(/^\.\//, ''), m]));
      assert.equal(byPath.get(longName)?.body, 'long\n');
      assert.equal(byPath.get('large.bin')?.body.length, large.length);
      const tarFile = path.join(d.sandbox.base, 'out.tar');
      await fsp.writeFile(tarFile, bytes);
      const listed = execFileSync('tar', ['-tf', tarFile], { encoding: 'utf8' }).split('\n');
      assert.ok(listed.includes(`./${longName}`), listed.join(','));
    } finally {
      await d.close();
    }
  });
});

describe('GET /v1/fs/tar content read during the walk', () => {
  test('files read in the walk that cross the 1 MiB batches, and files past the per-file limit, extract byte for byte', async () => {
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 12; i++) files[`t/m${String(i).padStart(2, '0')}.bin`] = randomBytes(200 * 1024 + i * 37);
    files['t/over-limit.bin'] = randomBytes(300 * 1024);
    files['t/empty.bin'] = Buffer.alloc(0);
    const d = await startDaemon({ files });
    try {
      const r = await d.call(`/v1/fs/tar?${q({ path: 't' })}`);
      assert.equal(r.status, 200);
      const tarFile = path.join(d.sandbox.base, 'out.tar');
      await fsp.writeFile(tarFile, new Uint8Array(await r.arrayBuffer()));
      const dest = path.join(d.sandbox.base, 'x');
      await fsp.mkdir(dest);
      execFileSync('tar', ['-xf', tarFile, '-C', dest]);
      for (const [rel, bytes] of Object.entries(files)) {
        assert.ok((await fsp.readFile(path.join(dest, rel.slice(2)))).equals(bytes), rel);
      }
      assert.equal(tarPrefetch.available, TAR_PREFETCH_BYTES, 'everything read ahead was given back');
    } finally {
      await d.close();
    }
  });

  test('a client that goes away mid-archive leaves nothing of the read-ahead held and no slice with the read thread', async () => {
    // 24 MiB of files small enough to be read ahead: more than the socket's buffers take, so the
    // packing is held ahead of a client that stops reading
    const files: Record<string, Buffer> = {};
    for (let i = 0; i < 3000; i++) files[`t/m${String(i).padStart(4, '0')}.bin`] = randomBytes(8 * 1024);
    const d = await startDaemon({ files });
    const ac = new AbortController();
    try {
      const r = await d.call(`/v1/fs/tar?${q({ path: 't' })}`, { signal: ac.signal });
      assert.equal(r.status, 200);
      const reader = r.body!.getReader();
      await reader.read();
      // the client reads no more: the packing goes on until it is held ahead of the socket
      await waitFor(() => tarPrefetch.available < TAR_PREFETCH_BYTES);
      assert.ok(tarPrefetch.available < TAR_PREFETCH_BYTES, 'content was read ahead');
      ac.abort();
      await reader.cancel().catch(() => undefined);
      await waitFor(() => tarPrefetch.available === TAR_PREFETCH_BYTES && tarReadPool.inFlightCount === 0);
      assert.equal(tarPrefetch.available, TAR_PREFETCH_BYTES);
      assert.equal(tarReadPool.inFlightCount, 0);
    } finally {
      // a failed assertion must not leave the response open: the daemon's close would wait for it forever
      ac.abort();
      await d.close();
    }
  });
});

describe('tar caps on GET', () => {
  test('more members or bytes than the caps → 413 before any byte of archive', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`t/f${i}.txt`] = 'x'.repeat(100);
    const d = await startDaemon({ files, limits: { maxTarMembers: 10 } });
    const e = await startDaemon({ files, limits: { maxTarBytes: 1000 } });
    try {
      const r = await d.call(`/v1/fs/tar?${q({ path: 't' })}`);
      assert.equal(r.status, 413);
      assert.equal(await r.text(), 'tree under t has more than 10 members');
      const s = await e.call(`/v1/fs/tar?${q({ path: 't' })}`);
      assert.equal(s.status, 413);
      assert.equal(await s.text(), 'tree under t exceeds 1000 bytes');
      assert.equal(tarPrefetch.available, TAR_PREFETCH_BYTES, 'a refused walk gives back what it read ahead');
    } finally {
      await d.close();
      await e.close();
    }
  });
});

describe('PUT /v1/fs/tar', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'src/a.txt': 'a\n', 'src/deep/b.bin': new Uint8Array([0, 1, 2, 255]), 'file.txt': 'f' }, limits: { maxBodyBytes: 64 * 1024 } });
    await fsp.chmod(path.join(d.sandbox.root, 'src/a.txt'), 0o755);
    await fsp.symlink('deep/b.bin', path.join(d.sandbox.root, 'src/ln'));
  });
  after(() => d.close());

  const put = (dest: string, body: BodyInit) => d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body });

  test('a round trip through GET and PUT reproduces the tree', async () => {
    const tar = new Uint8Array(await (await d.call(`/v1/fs/tar?${q({ path: 'src' })}`)).arrayBuffer());
    const r = await put(path.join(d.sandbox.root, 'copy'), tar);
    assert.equal(r.status, 204, await r.text());
    assert.deepEqual(await snapshotTree(path.join(d.sandbox.root, 'copy')), await snapshotTree(path.join(d.sandbox.root, 'src')));
  });

  test('modes are masked with 0o755', async () => {
    const r = await put(path.join(d.sandbox.root, 'modes'), rawTar([{ name: 'suid', type: '0', content: 'x', mode: 0o6777 }]));
    assert.equal(r.status, 204);
    assert.equal((await fsp.stat(path.join(d.sandbox.root, 'modes/suid'))).mode & 0o7777, 0o755);
  });

  test('a relative path → 400', async () => {
    const r = await put('copy2', rawTar([]));
    assert.equal(r.status, 400);
    assert.equal(await r.text(), 'path must be absolute for extraction');
  });

  test('an absolute path outside the root → 403', async () => {
    const before = await snapshotTree(d.sandbox.outside);
    const r = await put(path.join(d.sandbox.outside, 'x'), rawTar([{ name: 'a', type: '0', content: 'x' }]));
    assert.equal(r.status, 403);
    assert.deepEqual(await snapshotTree(d.sandbox.outside), before);
  });

  test('a file as the destination → 400', async () => {
    const r = await put(path.join(d.sandbox.root, 'file.txt'), rawTar([]));
    assert.equal(r.status, 400);
    assert.equal(await r.text(), 'path is not a directory; use /v1/fs/file');
  });

  for (const [name, bytes] of [
    ['a truncated archive', rawTar([{ name: 'big', type: '0', content: 'z'.repeat(5000) }]).subarray(0, 2048)],
    ['garbage', new TextEncoder().encode('this is not a tar archive at all, not even close'.repeat(20))],
  ] as const) {
    test(`${name} → 400 and nothing written`, async () => {
      const dest = path.join(d.sandbox.root, 'trunc');
      const r = await put(dest, bytes);
      assert.equal(r.status, 400);
      assert.equal(await r.text(), 'malformed or truncated body');
      await assert.rejects(fsp.access(dest));
    });
  }

  test('below the disk reserve → 507, nothing written', async () => {
    const e = await startDaemon({ limits: { diskReserveBytes: Number.MAX_SAFE_INTEGER } });
    try {
      const r = await e.call(`/v1/fs/tar?${q({ path: path.join(e.sandbox.root, 'x') })}`, { method: 'PUT', body: rawTar([{ name: 'a', type: '0', content: 'x' }]) });
      assert.equal(r.status, 507);
      assert.match(await r.text(), /^refusing to write x: \d+ bytes available on the target filesystem, below the \d+ byte reserve$/);
      assert.deepEqual(await fsp.readdir(e.sandbox.root), []);
    } finally {
      await e.close();
    }
  });

  test('a body over the limit → 413', async () => {
    const r = await put(path.join(d.sandbox.root, 'huge'), rawTar([{ name: 'a', type: '0', content: 'x'.repeat(100 * 1024) }]));
    assert.equal(r.status, 413);
    await assert.rejects(fsp.access(path.join(d.sandbox.root, 'huge')));
  });
});
