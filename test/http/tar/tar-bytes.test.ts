// The exact bytes of GET /v1/fs/tar: a fixed tree (fixed contents, modes and times) must pack to
// the same archive whichever way each member is produced: content read ahead by the walk, a file
// opened again when its turn comes (a read-ahead hold too small for it), or a mix of both, slices
// packed on the read thread or not, in process and through the route. The digest pins the archive
// format (ustar headers, pax for long names, padding, end blocks); a change of format on purpose
// updates it here.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PrefetchHold } from '../../../src/http/tar/prefetch-budget.js';
import { tarReadPool } from '../../../src/http/tar/tar-read-pool.js';
import { walkTree } from '../../../src/http/tar/tar-walk.js';
import { TreeTarStream } from '../../../src/http/tar/tar-writer.js';
import { type Daemon, q, startDaemon } from '../harness.js';

/** sha256 of the archive of `tree` below, as the packer wrote it before the walk built archive bytes in place. */
const ARCHIVE_SHA256 = 'edab03901bb9d147acbc5d8b693734e9803649ee6fdbaa919e721bc22ff04d55';

/** Deterministic bytes (a linear congruential sequence): no randomness in a pinned archive. */
function bytesOf(n: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

interface Node {
  rel: string;
  kind: 'file' | 'dir' | 'link';
  mode?: number;
  data?: Buffer;
  target?: string;
}

function fixedTree(): Node[] {
  const nodes: Node[] = [
    { rel: 'closed', kind: 'dir', mode: 0o700 },
    { rel: 'sub', kind: 'dir', mode: 0o755 },
    { rel: 'sub/deeper', kind: 'dir', mode: 0o750 },
    { rel: 'many', kind: 'dir', mode: 0o755 },
    { rel: 'empty', kind: 'file', mode: 0o644, data: Buffer.alloc(0) },
    { rel: 'one', kind: 'file', mode: 0o644, data: bytesOf(1, 1) },
    { rel: 'b511', kind: 'file', mode: 0o644, data: bytesOf(511, 2) },
    { rel: 'b512', kind: 'file', mode: 0o644, data: bytesOf(512, 3) },
    { rel: 'b513', kind: 'file', mode: 0o644, data: bytesOf(513, 4) },
    { rel: 'exec.sh', kind: 'file', mode: 0o755, data: Buffer.from('#!/bin/sh\necho hi\n') },
    { rel: 'priv', kind: 'file', mode: 0o600, data: bytesOf(100, 5) },
    { rel: 'big', kind: 'file', mode: 0o644, data: bytesOf(300 * 1024 + 7, 6) },
    { rel: 'huge', kind: 'file', mode: 0o644, data: bytesOf(1200 * 1024 + 3, 7) },
    { rel: `${'n'.repeat(120)}.txt`, kind: 'file', mode: 0o644, data: bytesOf(40, 8) },
    { rel: 'été.txt', kind: 'file', mode: 0o644, data: Buffer.from('ü\n') },
    { rel: 'closed/inner', kind: 'file', mode: 0o644, data: bytesOf(9, 9) },
    { rel: 'sub/deeper/file', kind: 'file', mode: 0o644, data: bytesOf(2000, 10) },
    { rel: 'link', kind: 'link', target: 'one' },
    { rel: 'sub/longlink', kind: 'link', target: `../${'t'.repeat(150)}` },
  ];
  for (let i = 0; i < 300; i++) nodes.push({ rel: `many/f${String(i).padStart(3, '0')}`, kind: 'file', mode: 0o644, data: bytesOf(700 + i, 100 + i) });
  return nodes;
}

/** Writes the fixed tree under `dir` with fixed modes and times (deepest first for the times). */
async function writeFixedTree(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  const nodes = fixedTree();
  for (const n of nodes) {
    const p = path.join(dir, n.rel);
    if (n.kind === 'dir') await fsp.mkdir(p, { recursive: true });
    else if (n.kind === 'file') await fsp.writeFile(p, n.data!);
    else await fsp.symlink(n.target!, p);
  }
  for (const [i, n] of nodes.entries()) {
    const p = path.join(dir, n.rel);
    const t = 1_700_000_000 + i * 97;
    await fsp.lutimes(p, t, t);
    if (n.kind !== 'link') await fsp.chmod(p, n.mode!);
  }
  await fsp.chmod(dir, 0o755);
}

const sha256 = (chunks: Buffer[]) => {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
};

describe('GET /v1/fs/tar archive bytes', () => {
  let d: Daemon;
  let tree: string;
  before(async () => {
    d = await startDaemon({ limits: { maxTarMembers: 1000 } });
    tree = await fsp.realpath(path.join(d.sandbox.root, '.'));
    tree = path.join(tree, 'fixed');
    await writeFixedTree(tree);
  });
  after(() => d.close());

  const caps = { maxTarMembers: 1000, maxTarBytes: 1 << 30 };
  // the whole tree read ahead; nothing read ahead; a hold that runs out after some members
  for (const [name, limit] of [
    ['all read ahead', 64 << 20],
    ['none read ahead', 0],
    ['a hold that runs out part way', 5000],
  ] as const) {
    test(`in process, ${name}: the pinned archive`, async () => {
      const hold = new PrefetchHold(limit);
      const chunks: Buffer[] = [];
      for await (const c of new TreeTarStream(await walkTree(d.engine.guard, tree, 'fixed', caps, hold), d.engine.guard, hold)) chunks.push(c as Buffer);
      assert.equal(hold.holding, 0);
      assert.equal(sha256(chunks), ARCHIVE_SHA256);
    });
  }

  test('in process, slices packed on the read thread too: the pinned archive', async () => {
    assert.ok(await tarReadPool.warm(), 'the read thread starts');
    const handed = tarReadPool.submittedCount;
    const hold = new PrefetchHold(64 << 20);
    const chunks: Buffer[] = [];
    for await (const c of new TreeTarStream(await walkTree(d.engine.guard, tree, 'fixed', caps, hold), d.engine.guard, hold)) chunks.push(c as Buffer);
    assert.ok(tarReadPool.submittedCount > handed, 'slices were handed to the read thread');
    assert.equal(sha256(chunks), ARCHIVE_SHA256);
  });

  test('through the route: the pinned archive', async () => {
    const r = await d.call(`/v1/fs/tar?${q({ path: 'fixed' })}`);
    assert.equal(r.status, 200);
    assert.equal(sha256([Buffer.from(await r.arrayBuffer())]), ARCHIVE_SHA256);
  });
});
