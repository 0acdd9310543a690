// PUT /v1/fs/tar: a chain of symbolic links where each link is inside the root when it is checked,
// but a later member changes what an earlier one resolves through: `esc → dd/..`, then `dd → .`,
// makes `esc` the parent of the root. Archives made by GNU tar from a real tree (and raw headers
// for the orders tar would not write), sent in one request or spread over two. After every
// request, each link under the root must resolve inside it (realpath), and nothing outside changed.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { isWithin } from '../../src/core/config/path-policy.js';
import { snapshotTree } from '../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { rawTar } from '../http/tar/raw-tar.js';

let d: Daemon;
let work: string;
before(async () => {
  d = await startDaemon({ files: { 'keep.txt': 'keep\n' } });
  work = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-chain-'));
});
after(async () => {
  await d.close();
  await fsp.rm(work, { recursive: true, force: true });
});

/** GNU tar over a scratch tree holding `links` (name → target), members in the given order. */
function gnuTar(name: string, links: Array<[string, string]>, dirs: string[] = []): Uint8Array<ArrayBuffer> {
  const src = path.join(work, name);
  execFileSync('mkdir', ['-p', src, ...dirs.map((x) => path.join(src, x))]);
  for (const [l, target] of links) execFileSync('ln', ['-sfn', target, path.join(src, l)]);
  const members = [...dirs, ...links.map(([l]) => l)];
  const out = execFileSync('tar', ['-cf', '-', '--no-recursion', '-C', src, ...members], { maxBuffer: 1 << 20 });
  return new Uint8Array(out);
}

/** Every symbolic link under the root resolves inside it, or nowhere (dangling). */
async function assertNoLinkLeadsOut(root: string): Promise<void> {
  for (const [rel, kind] of await snapshotTree(root)) {
    if (!kind.startsWith('link:')) continue;
    const real = await fsp.realpath(path.join(root, rel)).catch(() => null);
    assert.ok(real === null || isWithin(real, root), `${rel} (${kind}) resolves to ${real}, outside the root`);
  }
}

async function put(dest: string, archive: Uint8Array<ArrayBuffer>): Promise<{ status: number; text: string }> {
  const r = await d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: archive });
  return { status: r.status, text: await r.text() };
}

const CASES: Array<[string, () => Uint8Array<ArrayBuffer>]> = [
  ['GNU tar: esc → dd/.., then dd → .', () => gnuTar('a', [['esc', 'dd/..'], ['dd', '.']])],
  ['raw: esc → dd/.., then dd → .', () => rawTar([{ name: 'esc', type: '2', linkname: 'dd/..' }, { name: 'dd', type: '2', linkname: '.' }])],
  ['raw: a directory dd, esc → dd/.., then dd (empty) replaced by dd → .', () =>
    rawTar([{ name: 'dd/', type: '5' }, { name: 'esc', type: '2', linkname: 'dd/..' }, { name: 'dd', type: '2', linkname: '.' }])],
  ['GNU tar: deeper, sub/esc → x/y/../.., then sub/x/y → ../..', () =>
    gnuTar('b', [['sub/esc', 'x/y/../../..'], ['sub/x/y', '../..']], ['sub', 'sub/x'])],
];

for (const [name, make] of CASES) {
  test(`${name}: refused, nothing written, no link leads out`, async () => {
    const dest = path.join(d.sandbox.root, 'x');
    await fsp.rm(dest, { recursive: true, force: true });
    await fsp.mkdir(dest);
    const beforeRoot = await snapshotTree(d.sandbox.root);
    const beforeOutside = await snapshotTree(d.sandbox.outside);
    const r = await put(dest, make());
    assert.equal(r.status, 400, r.text);
    assert.match(r.text, /^refused tar member (sub\/)?esc: link target .* climbs out of a component/);
    await assertNoLinkLeadsOut(d.sandbox.root);
    assert.deepEqual(await snapshotTree(d.sandbox.root), beforeRoot);
    assert.deepEqual(await snapshotTree(d.sandbox.outside), beforeOutside);
  });
}

test('the chain spread over two requests: the first link is refused on its own', async () => {
  const dest = path.join(d.sandbox.root, 'y');
  await fsp.mkdir(dest, { recursive: true });
  const first = await put(dest, rawTar([{ name: 'dd/', type: '5' }, { name: 'esc', type: '2', linkname: 'dd/..' }]));
  assert.equal(first.status, 400, first.text);
  const second = await put(dest, rawTar([{ name: 'dd', type: '2', linkname: '.' }]));
  assert.equal(second.status, 204, second.text);
  await assertNoLinkLeadsOut(d.sandbox.root);
  await assert.rejects(fsp.lstat(path.join(dest, 'esc')), { code: 'ENOENT' });
});

test('links that only climb first (../x) and then descend are still kept', async () => {
  const dest = path.join(d.sandbox.root, 'z');
  const r = await put(dest, rawTar([
    { name: 'lib/', type: '5' },
    { name: 'lib/a.txt', type: '0', content: 'a\n' },
    { name: 'bin/', type: '5' },
    { name: 'bin/a', type: '2', linkname: '../lib/a.txt' },
    { name: 'bin/here', type: '2', linkname: './../lib' },
  ]));
  assert.equal(r.status, 204, r.text);
  assert.equal(await fsp.readFile(path.join(dest, 'bin/a'), 'utf8'), 'a\n');
  assert.equal(await fsp.readlink(path.join(dest, 'bin/here')), './../lib');
  await assertNoLinkLeadsOut(d.sandbox.root);
});
