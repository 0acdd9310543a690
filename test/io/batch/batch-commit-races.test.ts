// commitBatch against changes made behind its back between the preflight and a file's own change
// (the test seam `beforeApply` runs right before change i): a destination that appears, a parent
// swapped for a link, a source modified or replaced, an undo that cannot put a file back. Also
// the endpoint rules (chains, swaps, self-renames) and the removal of empty parents.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { commitBatch, type FileChange } from '../../../src/io/batch/batch-commit.js';
import { sandboxedEngines } from '../../helpers/engine.js';
import { snapshotTree } from '../../helpers/tmp-tree.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const setup = sandboxedEngines();
type Coded = { code?: string; details?: Record<string, unknown> };

async function tree() {
  const { sb, engine } = await setup({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'sub/keep.txt': 'K\n', 'd/e/f.txt': 'F\n', 'd/g.txt': 'G\n' });
  const r = (p: string) => engine.guard.resolve(p, 'write');
  const at = (p: string) => path.join(sb.root, p);
  return { sb, engine, r, at };
}

test('a destination that appears after the preflight: already_exists, the earlier rename moved back, its new parents removed, the newcomer kept', async () => {
  const { sb, engine, r, at } = await tree();
  const before = await snapshotTree(sb.root);
  const changes: FileChange[] = [
    { kind: 'rename', from: await r('a.txt'), to: await r('moved/deep/a.txt'), expectedSha256: sha('A\n'), createParents: true },
    { kind: 'rename', from: await r('b.txt'), to: await r('c.txt'), expectedSha256: sha('B\n'), createParents: true },
  ];
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, changes, { beforeApply: (i) => (i === 1 ? fsp.writeFile(at('c.txt'), 'newcomer') : undefined) }),
    (e: Coded) => e.code === 'already_exists' && e.details?.filePath === 'b.txt' && (e.details?.restored as string[]).includes('a.txt'),
  );
  assert.equal(await fsp.readFile(at('c.txt'), 'utf8'), 'newcomer');
  await fsp.unlink(at('c.txt'));
  assert.deepEqual(await snapshotTree(sb.root), before);
});

test('a destination parent swapped for a link to outside after the preflight: refused, nothing lands outside', async () => {
  const { sb, engine, r, at } = await tree();
  const outsideBefore = await snapshotTree(sb.outside);
  const changes: FileChange[] = [{ kind: 'rename', from: await r('a.txt'), to: await r('sub/a.txt'), expectedSha256: sha('A\n') }];
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, changes, {
      beforeApply: async () => {
        await fsp.rename(at('sub'), at('sub.old'));
        await fsp.symlink(sb.outside, at('sub'));
      },
    }),
    (e: Coded) => ['symlink_escape', 'link_swapped'].includes(e.code ?? ''),
  );
  assert.deepEqual(await snapshotTree(sb.outside), outsideBefore);
  assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'A\n');
});

test('a source modified in place or replaced after the preflight is never moved, deleted or changed', async () => {
  const { sb, engine, r, at } = await tree();
  for (const kind of ['rename', 'delete', 'chattr'] as const) {
    for (const how of ['changed', 'replaced'] as const) {
      await fsp.writeFile(at('a.txt'), 'A\n');
      const rp = await r('a.txt');
      const change: FileChange =
        kind === 'rename'
          ? { kind, from: rp, to: await r('z.txt'), expectedSha256: sha('A\n') }
          : kind === 'delete'
            ? { kind, rp, expectedSha256: sha('A\n') }
            : { kind, rp, mode: 0o600, expectedSha256: sha('A\n') };
      const swap = async () => {
        if (how === 'changed') await fsp.appendFile(at('a.txt'), 'more\n');
        else {
          await fsp.writeFile(at('a.new'), 'A\n');
          await fsp.rename(at('a.new'), at('a.txt'));
        }
      };
      const mode = (await fsp.stat(at('a.txt'))).mode;
      await assert.rejects(
        commitBatch(engine.guard, engine.locks, [change], { beforeApply: swap }),
        (e: Coded) => e.code === 'stale_or_missing_hash' && e.details?.reason === how,
        `${kind} after the file was ${how}`,
      );
      assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), how === 'changed' ? 'A\nmore\n' : 'A\n');
      assert.equal((await fsp.stat(at('a.txt'))).mode, mode);
      await assert.rejects(fsp.stat(at('z.txt')));
    }
  }
  assert.deepEqual((await fsp.readdir(sb.root)).filter((n) => n.includes('hashline-')), []);
});

test('an undo that cannot put a file back: rollback_incomplete with a table code and the path', async () => {
  const { engine, r, at } = await tree();
  const changes: FileChange[] = [
    { kind: 'rename', from: await r('a.txt'), to: await r('x.txt'), expectedSha256: sha('A\n') },
    { kind: 'rename', from: await r('b.txt'), to: await r('y.txt'), expectedSha256: sha('B\n') },
  ];
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, changes, {
      beforeApply: async (i) => {
        if (i !== 1) return;
        await fsp.writeFile(at('a.txt'), 'someone else'); // the first source's name is taken again
        await fsp.writeFile(at('y.txt'), 'in the way'); // and the second rename fails
      },
    }),
    (e: Coded) => {
      assert.equal(e.code, 'rollback_incomplete');
      assert.equal(e.details?.cause, 'already_exists');
      assert.deepEqual(e.details?.affected, ['a.txt']);
      assert.deepEqual(e.details?.causes, [{ path: 'a.txt', code: 'already_exists' }]);
      return true;
    },
  );
  // nothing was overwritten: the moved file is still at its destination, the newcomer kept
  assert.equal(await fsp.readFile(at('x.txt'), 'utf8'), 'A\n');
  assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'someone else');
  assert.equal(await fsp.readFile(at('b.txt'), 'utf8'), 'B\n');
});

test('chattr changes go through the open file and are put back on a later failure', async () => {
  const { sb, engine, r, at } = await tree();
  await fsp.chmod(at('b.txt'), 0o640);
  const aMode = (await fsp.stat(at('a.txt'))).mode & 0o7777;
  const before = await snapshotTree(sb.root);
  const changes: FileChange[] = [
    { kind: 'chattr', rp: await r('a.txt'), mode: 0o600, expectedSha256: sha('A\n') },
    { kind: 'chattr', rp: await r('b.txt'), mode: 0o755, expectedSha256: sha('B\n') },
    { kind: 'delete', rp: await r('d/g.txt'), expectedSha256: sha('G\n') },
  ];
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, changes, {
      beforeApply: (i) => {
        if (i === 2) throw new Error('disk on fire');
      },
    }),
    (e: Coded) => e.details?.rolledBack === true && (e.details?.restored as string[]).join() === 'a.txt,b.txt',
  );
  assert.deepEqual(await snapshotTree(sb.root), before);
  const out = await commitBatch(engine.guard, engine.locks, changes.slice(0, 2));
  assert.deepEqual(out.map((o) => o.attributes?.after.mode), [0o600, 0o755]);
  assert.deepEqual(out.map((o) => o.attributes?.before.mode), [aMode, 0o640]);
});

test('a chain or a swap names a file twice and is refused before anything is touched; so is a rename onto itself', async () => {
  const { sb, engine, r } = await tree();
  const before = await snapshotTree(sb.root);
  const [a, b, c] = [await r('a.txt'), await r('b.txt'), await r('c.txt')];
  const twice = (e: Coded) => e.code === 'invalid_arguments' && /named twice/.test((e as Error).message);
  await assert.rejects(commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: a, to: b }, { kind: 'rename', from: b, to: c }], { requireHash: false }), twice);
  await assert.rejects(commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: a, to: b }, { kind: 'rename', from: b, to: a }], { requireHash: false }), twice);
  await assert.rejects(commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: a, to: c }, { kind: 'delete', rp: c }], { requireHash: false }), twice);
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [{ kind: 'rename', from: a, to: await r('./sub/../a.txt') }], { requireHash: false }),
    (e: Coded) => e.code === 'invalid_arguments' && /same file/.test((e as Error).message),
  );
  assert.deepEqual(await snapshotTree(sb.root), before);
});

test('a delete removes the parents it leaves empty, innermost first, and stops at a non-empty one and at the root', async () => {
  const { sb, engine, r, at } = await tree();
  const out = await commitBatch(engine.guard, engine.locks, [
    { kind: 'delete', rp: await r('d/e/f.txt'), expectedSha256: sha('F\n'), removeEmptyParents: true },
    { kind: 'delete', rp: await r('a.txt'), expectedSha256: sha('A\n'), removeEmptyParents: true },
  ]);
  assert.deepEqual(out[0]!.removedDirs, ['d/e']);
  assert.deepEqual(out[1]!.removedDirs, []);
  assert.equal(await fsp.readFile(at('d/g.txt'), 'utf8'), 'G\n');
  await commitBatch(engine.guard, engine.locks, [{ kind: 'delete', rp: await r('d/g.txt'), expectedSha256: sha('G\n'), removeEmptyParents: true }]);
  assert.deepEqual((await fsp.readdir(sb.root)).sort(), ['b.txt', 'sub']);
});

test('a write given the bytes it expects compares them: other bytes of the same size are refused before and after the preflight', async () => {
  const { sb, engine, r, at } = await tree();
  const read = Buffer.from('A\n');
  // changed between the caller's read and the preflight (same size: only the bytes tell)
  await fsp.writeFile(at('a.txt'), 'Z\n');
  const write = async (): Promise<FileChange> => ({ kind: 'write', rp: await r('a.txt'), bytes: Buffer.from('new\n'), expectedSha256: sha('A\n'), expectedBytes: read });
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [await write()]),
    (e: Coded) => e.code === 'stale_or_missing_hash' && e.details?.reason === 'mismatch' && e.details?.actual === sha('Z\n'),
  );
  assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'Z\n');
  // changed in place (same size) after the preflight, before the write: the kept bytes are compared again
  await fsp.writeFile(at('a.txt'), 'A\n');
  await assert.rejects(
    commitBatch(engine.guard, engine.locks, [await write()], { beforeApply: () => fsp.writeFile(at('a.txt'), 'Y\n') }),
    (e: Coded) => e.code === 'stale_or_missing_hash' && e.details?.reason === 'changed' && e.details?.actual === sha('Y\n'),
  );
  assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'Y\n');
  // unchanged: written, the outcome names both hashes, and the bytes are not handed back unasked
  await fsp.writeFile(at('a.txt'), 'A\n');
  const [done] = await commitBatch(engine.guard, engine.locks, [await write()]);
  assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'new\n');
  assert.equal(done!.sha256Before, sha('A\n'));
  assert.equal(done!.sha256After, sha('new\n'));
  assert.equal(done!.before, undefined);
  assert.deepEqual((await fsp.readdir(sb.root)).filter((n) => n.includes('hashline-')), []);
});
