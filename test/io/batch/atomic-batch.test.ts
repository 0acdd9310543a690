// Batch atomic writes: every file replaced with its mode, failures reported per file while the
// others are written, no temporary file left behind, nothing written through a link.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { writeAtomicBatch } from '../../../src/io/batch/atomic-batch.js';
import { readVerifiedBytes } from '../../../src/io/read/read-batch.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

const enc = (s: string) => new TextEncoder().encode(s);

async function tempsUnder(dir: string): Promise<string[]> {
  const all = await fsp.readdir(dir, { recursive: true });
  return all.filter((f) => String(f).includes(TEMP_MARKER)).map(String);
}

test('writes every file, keeps modes, fsyncs, leaves no temporary files', async () => {
  sb = await makeSandbox({ 'a/x.ts': 'x\n', 'a/y.sh': 'y\n', 'b/z.ts': 'z\n' });
  await fsp.chmod(path.join(sb.root, 'a/y.sh'), 0o750);
  const engine = await engineFor(sb.root);
  const items = await Promise.all(['a/x.ts', 'a/y.sh', 'b/z.ts'].map(async (p) => ({ rp: await engine.guard.resolve(p, 'write'), data: enc(`new ${p}\n`) })));
  const out = await writeAtomicBatch(engine.guard, items);
  assert.equal(out.failed.length, 0);
  assert.equal(out.written.length, 3);
  for (const p of ['a/x.ts', 'a/y.sh', 'b/z.ts']) assert.equal(await fsp.readFile(path.join(sb.root, p), 'utf8'), `new ${p}\n`);
  assert.equal((await fsp.stat(path.join(sb.root, 'a/y.sh'))).mode & 0o777, 0o750);
  assert.deepEqual(await tempsUnder(sb.root), []);
});

test('a target that became a directory or a link fails alone; nothing outside changes', async () => {
  sb = await makeSandbox({ 'ok.ts': 'ok\n', 'dir.ts': 'soon a dir\n', 'link.ts': 'soon a link\n' });
  const engine = await engineFor(sb.root);
  const rps = await Promise.all(['ok.ts', 'dir.ts', 'link.ts'].map((p) => engine.guard.resolve(p, 'write')));
  await fsp.rm(path.join(sb.root, 'dir.ts'));
  await fsp.mkdir(path.join(sb.root, 'dir.ts'));
  await fsp.rm(path.join(sb.root, 'link.ts'));
  await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'link.ts'));
  const outside = await snapshotTree(sb.outside);
  const out = await writeAtomicBatch(engine.guard, rps.map((rp) => ({ rp, data: enc('new\n') })));
  assert.deepEqual(out.written.map((rp) => rp.display), ['ok.ts']);
  assert.deepEqual(out.failed.map((f) => [f.rp.display, f.error.code]).sort(), [['dir.ts', 'is_directory'], ['link.ts', 'link_swapped']]);
  assert.equal(await fsp.readFile(path.join(sb.root, 'ok.ts'), 'utf8'), 'new\n');
  assert.deepEqual(await snapshotTree(sb.outside), outside);
  assert.deepEqual(await tempsUnder(sb.root), []);
});

test('readVerifiedBytes refuses a final link and reads small and large files whole', async () => {
  sb = await makeSandbox({ 'small.txt': 'hello\n', 'big.txt': 'x'.repeat(2 * 1024 * 1024) });
  const engine = await engineFor(sb.root);
  const small = await readVerifiedBytes(engine.guard, await engine.guard.resolve('small.txt', 'read'), 'read');
  assert.equal(Buffer.from(small.bytes).toString(), 'hello\n');
  const big = await readVerifiedBytes(engine.guard, await engine.guard.resolve('big.txt', 'read'), 'read');
  assert.equal(big.bytes.length, 2 * 1024 * 1024);
  const rp = await engine.guard.resolve('small.txt', 'read');
  await fsp.rm(path.join(sb.root, 'small.txt'));
  await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'small.txt'));
  await assert.rejects(readVerifiedBytes(engine.guard, rp, 'read'), (e: { code?: string }) => e.code === 'link_swapped');
});
