import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { commitBatch, type FileChange } from '../../../src/io/batch/batch-commit.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox, snapshotTree } from '../../helpers/tmp-tree.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const enc = (s: string) => new TextEncoder().encode(s);

async function setup() {
  const sb = await makeSandbox({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'C\n' });
  await fsp.chmod(path.join(sb.root, 'b.txt'), 0o755);
  const engine = await engineFor(sb.root);
  const r = (p: string) => engine.guard.resolve(p, 'write');
  return { sb, engine, r };
}

test('a batch applies every change when every hash matches, and leaves no backup', async () => {
  const { sb, engine, r } = await setup();
  const out = await commitBatch(engine.guard, engine.locks, [
    { kind: 'write', rp: await r('a.txt'), bytes: enc('A2\n'), expectedSha256: sha('A\n') },
    { kind: 'write', rp: await r('new.txt'), bytes: enc('N\n') },
    { kind: 'delete', rp: await r('c.txt'), expectedSha256: sha('C\n') },
    { kind: 'rename', from: await r('b.txt'), to: await r('moved/b.txt'), expectedSha256: sha('B\n'), createParents: true },
  ]);
  assert.deepEqual(out.map((o) => o.kind), ['write', 'write', 'delete', 'rename']);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'A2\n');
  assert.equal(await fsp.readFile(path.join(sb.root, 'moved/b.txt'), 'utf8'), 'B\n');
  assert.equal((await fsp.stat(path.join(sb.root, 'moved/b.txt'))).mode & 0o777, 0o755);
  assert.deepEqual((await fsp.readdir(sb.root)).sort(), ['a.txt', 'moved', 'new.txt']);
  await sb.cleanup();
});

test('a stale hash anywhere in the batch changes nothing (compare-and-swap before the first change)', async () => {
  const { sb, engine, r } = await setup();
  const snap = await snapshotTree(sb.root);
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [
      { kind: 'write', rp: await r('a.txt'), bytes: enc('x'), expectedSha256: sha('A\n') },
      { kind: 'write', rp: await r('b.txt'), bytes: enc('y'), expectedSha256: sha('not B') },
    ]),
    (e: { code?: string; details?: { reason?: string } }) => e.code === 'stale_or_missing_hash' && e.details?.reason === 'mismatch',
  );
  assert.deepEqual(await snapshotTree(sb.root), snap);
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [{ kind: 'write', rp: await r('a.txt'), bytes: enc('x') }]),
    (e: { code?: string; details?: { reason?: string } }) => e.code === 'stale_or_missing_hash' && e.details?.reason === 'missing',
  );
  await commitBatch(engine.guard, engine.locks, [{ kind: 'write', rp: await r('a.txt'), bytes: enc('x') }], { requireHash: false });
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'x');
  await sb.cleanup();
});

test('a failure after some changes rolls every applied change back, byte for byte and mode for mode', async () => {
  const { sb, engine, r } = await setup();
  const snap = await snapshotTree(sb.root);
  const changes: FileChange[] = [
    { kind: 'write', rp: await r('a.txt'), bytes: enc('A2\n'), expectedSha256: sha('A\n') },
    { kind: 'write', rp: await r('fresh.txt'), bytes: enc('F\n') },
    { kind: 'chattr', rp: await r('b.txt'), mode: 0o600, expectedSha256: sha('B\n') },
    { kind: 'delete', rp: await r('c.txt'), expectedSha256: sha('C\n') },
    { kind: 'write', rp: await r('c2.txt'), bytes: enc('never') },
  ];
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, changes, {
      beforeApply: (i) => {
        if (i === 4) throw new Error('disk on fire');
      },
    }),
    (e: { code?: string; details?: { rolledBack?: boolean } }) => e.code === 'internal' && e.details?.rolledBack === true,
  );
  assert.deepEqual(await snapshotTree(sb.root), snap);
  await sb.cleanup();
});

test('cancellation mid-batch rolls back and reports aborted', async () => {
  const { sb, engine, r } = await setup();
  const snap = await snapshotTree(sb.root);
  const ac = new AbortController();
  await assert.rejects(
    commitBatch(
      engine.guard,
      engine.locks,
      [
        { kind: 'write', rp: await r('a.txt'), bytes: enc('1'), expectedSha256: sha('A\n') },
        { kind: 'write', rp: await r('b.txt'), bytes: enc('2'), expectedSha256: sha('B\n') },
      ],
      { signal: ac.signal, progress: () => ac.abort() },
    ),
    (e: { code?: string }) => e.code === 'aborted',
  );
  assert.deepEqual(await snapshotTree(sb.root), snap);
  await sb.cleanup();
});

test('batch size, duplicates and existing rename destinations are refused up front', async () => {
  const { sb, engine, r } = await setup();
  const a = await r('a.txt');
  await assert.rejects(commitBatch(engine.guard, engine.locks, []), (e: { code?: string }) => e.code === 'batch_limit');
  const many = Array.from({ length: 51 }, (_, i) => ({ kind: 'delete' as const, rp: { ...a, real: `${a.real}${i}` } }));
  await assert.rejects(commitBatch(engine.guard, engine.locks, many), (e: { code?: string }) => e.code === 'batch_limit');
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [
      { kind: 'delete', rp: a },
      { kind: 'delete', rp: a },
    ]),
    (e: { code?: string }) => e.code === 'invalid_arguments',
  );
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: a, to: await r('b.txt'), expectedSha256: sha('A\n') }]),
    (e: { code?: string }) => e.code === 'already_exists',
  );
  await sb.cleanup();
});
