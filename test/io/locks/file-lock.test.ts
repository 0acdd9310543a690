import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { HashlineError } from '../../../src/core/errors/errors.js';
import { LockManager } from '../../../src/io/locks/file-lock.js';
import { readLock, snapshotId } from '../../../src/io/locks/lock-file.js';
import { deadPid, lockOf, LOCK_MODULE, procStart, recordOf, tempDir } from '../../helpers/locks.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
});
function dir(prefix: string, base?: string): string {
  const d = tempDir(prefix, base);
  dirs.push(d);
  return d;
}

test('in-process: holders of one path never overlap; different paths run concurrently', async () => {
  const d = dir('hl-locks-');
  const locks = new LockManager({ root: d });
  let inside = 0;
  let maxInside = 0;
  const work = async () => {
    inside++;
    maxInside = Math.max(maxInside, inside);
    await new Promise((r) => setTimeout(r, 5));
    inside--;
  };
  await Promise.all(Array.from({ length: 10 }, () => locks.withLocks([`${d}/a`], work)));
  assert.equal(maxInside, 1);
  let both = 0;
  const slow = (p: string) => locks.withLocks([p], async () => {
    both++;
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(both, 2);
    await new Promise((r) => setTimeout(r, 5));
  });
  await Promise.all([slow(`${d}/b`), slow(`${d}/c`)]);
  assert.deepEqual(await fsp.readdir(d), [], 'every lock file is gone once released');
});

test('batches taking overlapping sets in different orders do not deadlock', { timeout: 30_000 }, async () => {
  const d = dir('hl-locks-');
  const locks = new LockManager({ root: d });
  const [p1, p2, p3] = [`${d}/1`, `${d}/2`, `${d}/3`];
  // every batch holds all three paths, so no two may ever be inside at once
  let inside = 0;
  let maxInside = 0;
  let done = 0;
  const batch = async () => {
    inside++;
    maxInside = Math.max(maxInside, inside);
    await new Promise((r) => setTimeout(r, 2));
    inside--;
    done++;
  };
  await Promise.all(Array.from({ length: 20 }, (_, i) => locks.withLocks(i % 2 ? [p1, p2, p3, p1] : [p3, p2, p1], batch)));
  assert.equal(done, 20, 'every batch ran');
  assert.equal(maxInside, 1, 'two batches holding the same paths overlapped');
  assert.deepEqual(await fsp.readdir(d), [], 'every lock file is gone once released');
});

test('the lock is a file beside the file, readable by every user, naming its owner', async () => {
  const d = dir('hl-locks-');
  const target = path.join(d, 'file.txt');
  const locks = new LockManager({ root: d });
  await locks.withLocks([target], async () => {
    const st = await fsp.stat(lockOf(target));
    assert.equal(st.mode & 0o777, 0o644);
    assert.equal(await fsp.readFile(lockOf(target), 'utf8'), recordOf(process.pid, procStart(process.pid), 'file.txt'));
  });
  assert.equal(existsSync(lockOf(target)), false);
});

test('cross-process: two processes incrementing one counter file under the lock lose no update', async () => {
  const d = dir('hl-lock-x-');
  const counter = path.join(d, 'counter');
  await fsp.writeFile(counter, '0');
  const script = `
    import { LockManager } from ${JSON.stringify(LOCK_MODULE)};
    import { promises as fsp } from 'node:fs';
    const locks = new LockManager({ root: ${JSON.stringify(d)} });
    for (let i = 0; i < 40; i++) {
      await locks.withLocks([${JSON.stringify(counter)}], async () => {
        const n = Number(await fsp.readFile(${JSON.stringify(counter)}, 'utf8'));
        await new Promise((r) => setTimeout(r, 1));
        await fsp.writeFile(${JSON.stringify(counter)}, String(n + 1));
      });
    }`;
  const run = () =>
    new Promise<number>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
      p.on('exit', (c) => resolve(c ?? 1));
    });
  const codes = await Promise.all([run(), run()]);
  assert.deepEqual(codes, [0, 0]);
  assert.equal(await fsp.readFile(counter, 'utf8'), '80');
});

test('a lock file left by a dead process is taken over', async () => {
  const d = dir('hl-lock-dead-');
  const target = path.join(d, 'stale.txt');
  await fsp.writeFile(lockOf(target), recordOf(await deadPid(), '1', 'stale.txt'));
  let ran = false;
  await new LockManager({ root: d }).withLocks([target], async () => {
    ran = true;
  }, { timeoutMs: 2000 });
  assert.equal(ran, true);
});

test('a lock held by a live process times out with a retryable lock_timeout naming the path as displayed', async () => {
  const d = dir('hl-lock-live-');
  const target = path.join(d, 'live.txt');
  await fsp.writeFile(lockOf(target), recordOf(process.ppid, procStart(process.ppid), 'live.txt'));
  const locks = new LockManager({ root: d, display: (abs) => path.relative(d, abs) });
  await assert.rejects(locks.withLocks([target], async () => undefined, { timeoutMs: 100 }), (e: HashlineError) => {
    assert.equal(e.code, 'lock_timeout');
    assert.equal(e.retryable, true);
    assert.equal(e.message, 'another process holds the lock on `live.txt`; try again');
    return true;
  });
  assert.ok(existsSync(lockOf(target)), 'the live lock stays');
});

/**
 * Locking `real` times out while what the test planted stands; after `change()` it is taken, and
 * nothing of the lock or of any takeover is left in `d`.
 */
async function refusedUntil(locks: LockManager, d: string, real: string, change: () => Promise<void>, keep: string[] = []): Promise<void> {
  await assert.rejects(locks.withLocks([real], async () => undefined, { timeoutMs: 300 }), (e: HashlineError) => e.code === 'lock_timeout');
  await change();
  let held = false;
  await locks.withLocks([real], async () => {
    held = true;
  }, { timeoutMs: 5000 });
  assert.ok(held);
  assert.deepEqual((await fsp.readdir(d)).sort(), keep.sort());
}

/**
 * Six lock managers over one file (separate managers have separate in-process queues: only the
 * lock file keeps them apart, as for separate processes) contend for it in each of 40 rounds, after
 * `setup(lockFile)` has planted what a dead process left; returns how often two of them held it at
 * once. `stagger`: start contenders up to 3 ms apart, so that they are in different steps of a
 * takeover at once.
 */
async function contendAfter(setup: (lockFile: string) => Promise<void>, stagger: boolean): Promise<{ d: string; overlaps: number }> {
  const d = dir('hl-lock-takeover-');
  const target = path.join(d, 'contended');
  const managers = Array.from({ length: 6 }, () => new LockManager({ root: d }));
  let inside = 0;
  let overlaps = 0;
  for (let round = 0; round < 40; round++) {
    await setup(lockOf(target));
    await Promise.all(
      managers.map(async (m, i) => {
        if (stagger) await new Promise((r) => setTimeout(r, (i * 7 + round) % 4));
        await m.withLocks([target], async () => {
          if (++inside > 1) overlaps++;
          await new Promise((r) => setImmediate(r));
          await fsp.stat(d); // a thread-pool round trip while holding
          inside--;
        }, { timeoutMs: 5000 });
      }),
    );
  }
  return { d, overlaps };
}

test('contenders taking over one dead owner\'s lock at once never hold it together', async () => {
  const owner = await deadPid();
  const { overlaps } = await contendAfter((lockFile) => fsp.writeFile(lockFile, recordOf(owner, '1', 'contended')), false);
  assert.equal(overlaps, 0);
});

test('contenders finding a takeover guard left by a dead process never hold the lock together', async () => {
  const owner = await deadPid();
  const guardHolder = await deadPid();
  // a lock of a dead owner, and the guard of a process that died while taking it over
  const { d, overlaps } = await contendAfter(async (lockFile) => {
    await fsp.writeFile(lockFile, recordOf(owner, '1', 'contended'));
    await fsp.writeFile(`${lockFile}.takeover.${snapshotId(readLock(lockFile)!)}`, recordOf(guardHolder, '1', ''));
  }, true);
  assert.equal(overlaps, 0);
  // nothing of the takeovers is left behind
  assert.deepEqual((await fsp.readdir(d)).filter((n) => n.includes('takeover')), []);
});

test('a takeover under way is never overtaken, even when the one before it died; the finished takeover leaves no guard', async () => {
  const d = dir('hl-lock-chain-');
  const target = path.join(d, 'chained');
  const locks = new LockManager({ root: d });
  const lock = lockOf(target);
  const stale = recordOf(await deadPid(), '1', 'chained');
  await fsp.writeFile(lock, stale);
  const first = `${lock}.takeover.${snapshotId(readLock(lock)!)}`;
  await fsp.writeFile(first, recordOf(await deadPid(), '1', ''));
  const second = `${first}.${snapshotId(readLock(first)!)}`;
  // one contender died inside its takeover; another (this process, alive) is inside the next one
  await fsp.writeFile(second, recordOf(process.pid, procStart(process.pid), ''));
  await refusedUntil(locks, d, target, async () => {
    assert.equal(await fsp.readFile(lock, 'utf8'), stale, 'the stale lock was left to the takeover under way');
    assert.deepEqual((await fsp.readdir(d)).sort(), [lock, first, second].map((p) => path.basename(p)).sort());
    // that contender dies too: the next takes the guard after it and finishes
    await fsp.writeFile(second, recordOf(await deadPid(), '1', ''));
  });
});

test('a lock whose owner cannot be checked (no owner named, another host) is waited on, then taken once unchanged for a lease', async () => {
  const d = dir('hl-lock-lease-');
  const locks = new LockManager({ root: d, leaseMs: 1500 });
  for (const [name, text] of [
    ['empty', ''],
    ['foreign', `4242\nstart=1\nboot=00000000-0000-0000-0000-000000000000\npidns=pid:[1]\ntarget=foreign\n`],
  ] as const) {
    const target = path.join(d, name);
    await fsp.writeFile(lockOf(target), text);
    // refused while fresh, then taken after the lease (nothing changed it meanwhile)
    await refusedUntil(locks, d, target, async () => undefined);
  }
});

test('a lock of this boot whose owner cannot be checked is alive while its heartbeat runs, dead once it stops', async () => {
  const d = dir('hl-lock-beat-');
  const target = path.join(d, 'beating');
  const lock = lockOf(target);
  // an owner on this boot in another pid namespace: only its heartbeat speaks for it
  const me = recordOf(1, '1', 'beating').replace(/pidns=.*\n/, 'pidns=pid:[1]\n');
  await fsp.writeFile(lock, me);
  const locks = new LockManager({ root: d, leaseMs: 300 });
  const beat = setInterval(() => void fsp.utimes(lock, new Date(), new Date()).catch(() => undefined), 50);
  try {
    await assert.rejects(locks.withLocks([target], async () => undefined, { timeoutMs: 1000 }), (e: HashlineError) => e.code === 'lock_timeout');
  } finally {
    clearInterval(beat);
  }
  await locks.withLocks([target], async () => undefined, { timeoutMs: 3000 });
});

test('a held lock\'s mtime is refreshed while it is held', async () => {
  const d = dir('hl-lock-refresh-');
  const target = path.join(d, 'held');
  const locks = new LockManager({ root: d, heartbeatMs: 30 });
  await locks.withLocks([target], async () => {
    const old = new Date(Date.now() - 60_000);
    await fsp.utimes(lockOf(target), old, old);
    for (let i = 0; i < 100 && (await fsp.stat(lockOf(target))).mtimeMs < Date.now() - 30_000; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok((await fsp.stat(lockOf(target))).mtimeMs > Date.now() - 30_000, 'the heartbeat set the mtime to now');
  });
});

test('release never removes a lock another process made after taking this one over', async () => {
  const d = dir('hl-lock-release-');
  const target = path.join(d, 'taken');
  const locks = new LockManager({ root: d });
  const foreign = recordOf(process.ppid, procStart(process.ppid), 'taken');
  await locks.withLocks([target], async () => {
    // (as if a contender had wrongly judged this lock dead and made its own)
    await fsp.unlink(lockOf(target));
    await fsp.writeFile(lockOf(target), foreign);
  });
  assert.equal(await fsp.readFile(lockOf(target), 'utf8'), foreign);
});

// on a disk and on a memory file system, where there is one
for (const base of [os.tmpdir(), ...(existsSync('/dev/shm') ? ['/dev/shm'] : [])]) {
  test(`a lock file is never seen without its owner, whatever moment a reader looks (${base})`, async () => {
    const d = dir('hl-lock-whole-', base);
    // another process takes and releases locks on many paths in a tight loop while this one reads;
    // counted, not timed: it runs until this one has read enough lock files and leaves a stop file
    const stop = path.join(d, 'stop');
    const script = `
      import { existsSync } from 'node:fs';
      import { LockManager } from ${JSON.stringify(LOCK_MODULE)};
      const locks = new LockManager({ root: ${JSON.stringify(d)} });
      for (let i = 0; !existsSync(${JSON.stringify(stop)}); i++) await locks.withLocks([${JSON.stringify(d)} + '/p' + (i % 64)], async () => undefined);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    const exited = new Promise<void>((r) => child.on('exit', () => r()));
    let reads = 0;
    let empty = 0;
    let done = false;
    void exited.then(() => (done = true));
    for (let rounds = 0; !done && reads < 200 && rounds < 1_000_000; rounds++) {
      for (const n of await fsp.readdir(d).catch(() => [] as string[])) {
        if (!n.endsWith('.hashline.lock')) continue;
        const text = await fsp.readFile(path.join(d, n), 'utf8').catch(() => null);
        if (text === null) continue;
        reads++;
        if (!/^\d+\nstart=\d+\n/.test(text)) empty++;
      }
    }
    await fsp.writeFile(stop, '');
    await exited;
    assert.ok(reads >= 200, `only ${reads} reads before the writer stopped`);
    assert.equal(empty, 0, `${empty} of ${reads} lock files were read without their owner`);
  });
}
