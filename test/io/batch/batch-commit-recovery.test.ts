// Recovery after `rollback_incomplete` (the batch's test seam `beforeApply` makes it happen on cue):
// the folder refuses changes (mode 0555) after the first file was written, so neither the undo nor
// the removal of the batch's lock files can happen. Once the user has put the folder right, the
// retry with a fresh hash is not answered `lock_timeout` (this process takes its own leftover lock
// back; the lock file is removed again within seconds, for other processes), and the backup that
// holds the old bytes is named in the error for the user to act on.
// Permissions bind root only through its effective user id: as root, the test runs its batches as
// `nobody` (seteuid) over a sandbox given to nobody.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, promises as fsp, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { commitBatch, type FileChange } from '../../../src/io/batch/batch-commit.js';
import { engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const enc = (s: string) => new TextEncoder().encode(s);
const NOBODY = 65534;
const root = process.getuid?.() === 0;

/** Runs `fn` with permissions that bind (as nobody when this process is root). */
async function unprivileged<T>(fn: () => Promise<T>): Promise<T> {
  if (!root) return fn();
  process.setegid!(NOBODY);
  process.seteuid!(NOBODY);
  try {
    return await fn();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
  }
}

async function setup() {
  const sb = await makeSandbox({ 'x.txt': 'X\n', 'y.txt': 'Y\n' });
  if (root) for (const p of [sb.base, sb.root, path.join(sb.root, 'x.txt'), path.join(sb.root, 'y.txt')]) chownSync(p, NOBODY, NOBODY);
  const engine = await engineFor(sb.root);
  const r = (p: string) => engine.guard.resolve(p, 'write');
  return { sb, engine, r };
}

/** Two writes; before the second, the folder stops taking changes and the batch fails: the first cannot be undone. */
async function failedBatch(s: Awaited<ReturnType<typeof setup>>): Promise<{ code?: string; message?: string; details?: Record<string, unknown> }> {
  const changes: FileChange[] = [
    { kind: 'write', rp: await s.r('x.txt'), bytes: enc('X2\n'), expectedSha256: sha('X\n') },
    { kind: 'write', rp: await s.r('y.txt'), bytes: enc('Y2\n'), expectedSha256: sha('Y\n') },
  ];
  let caught: unknown;
  await unprivileged(async () => {
    try {
      await commitBatch(s.engine.guard, s.engine.locks, changes, {
        beforeApply: async (i) => {
          if (i !== 1) return;
          await fsp.chmod(s.sb.root, 0o555);
          throw new Error('disk on fire');
        },
      });
    } catch (e) {
      caught = e;
    }
  });
  await fsp.chmod(s.sb.root, 0o755); // the user inspects and puts the folder right
  return caught as { code?: string; message?: string; details?: Record<string, unknown> };
}

const lockFiles = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.hashline.lock'));

test('rollback_incomplete names the backup that holds the old bytes; the retry with a fresh hash is not lock_timeout', async () => {
  const s = await setup();
  try {
    const e = await failedBatch(s);
    assert.equal(e.code, 'rollback_incomplete');
    assert.deepEqual(e.details?.affected, ['x.txt']);
    const kept = e.details?.kept as Array<{ path: string; backup: string }>;
    assert.equal(kept.length, 1);
    assert.equal(kept[0]!.path, 'x.txt');
    assert.match(kept[0]!.backup, /^\.x\.txt\.hashline-bak-[0-9a-f]+$/);
    assert.ok(e.message!.includes(kept[0]!.backup), e.message);
    assert.equal(await fsp.readFile(path.join(s.sb.root, kept[0]!.backup), 'utf8'), 'X\n');
    assert.equal(await fsp.readFile(path.join(s.sb.root, 'x.txt'), 'utf8'), 'X2\n');
    // inspect, hash again, retry: at once, never lock_timeout (the default wait is 10 s; this one 2 s)
    const t0 = Date.now();
    await unprivileged(() =>
      s.engine.locks.withLocks([path.join(s.sb.root, 'x.txt'), path.join(s.sb.root, 'y.txt')], async () => undefined, { timeoutMs: 2000 }),
    );
    const out = await unprivileged(async () =>
      commitBatch(s.engine.guard, s.engine.locks, [{ kind: 'write', rp: await s.r('x.txt'), bytes: enc('X3\n'), expectedSha256: sha('X2\n') }]),
    );
    assert.equal(out[0]!.sha256After, sha('X3\n'));
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(await fsp.readFile(path.join(s.sb.root, 'x.txt'), 'utf8'), 'X3\n');
    assert.deepEqual(lockFiles(s.sb.root), []);
  } finally {
    await fsp.chmod(s.sb.root, 0o755).catch(() => undefined);
    await s.sb.cleanup();
  }
});

test('after rollback_incomplete the lock files the folder refused to remove are removed once it allows it (other processes wait on them)', async () => {
  const s = await setup();
  try {
    const e = await failedBatch(s);
    assert.equal(e.code, 'rollback_incomplete');
    // no call of this process touches them: they go by themselves, within seconds
    let gone = false;
    for (let i = 0; i < 40 && !gone; i++) {
      gone = lockFiles(s.sb.root).length === 0;
      if (!gone) await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(gone, `lock files left: ${lockFiles(s.sb.root).join(', ')}`);
    // only the named backup is left of the batch, for the user
    assert.deepEqual(
      readdirSync(s.sb.root).filter((n) => n.includes('hashline')),
      [(e.details?.kept as Array<{ backup: string }>)[0]!.backup],
    );
    assert.ok(existsSync(path.join(s.sb.root, 'y.txt')));
  } finally {
    await fsp.chmod(s.sb.root, 0o755).catch(() => undefined);
    await s.sb.cleanup();
  }
});
