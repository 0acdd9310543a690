import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { HashlineError } from '../../src/core/errors.js';
import { LockManager } from '../../src/io/file-lock.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The name of the lock file `locks` makes in `dir` for `real` (taken once to see it). */
async function lockFileOf(locks: LockManager, dir: string, real: string): Promise<string> {
  let name = '';
  await locks.withLocks([real], async () => {
    name = (await fsp.readdir(dir)).find((n) => n.endsWith('.lock'))!;
  });
  return name;
}

test('in-process: holders of one path never overlap; different paths run concurrently', async () => {
  const locks = new LockManager(mkdtempSync(path.join(os.tmpdir(), 'hl-locks-')));
  let inside = 0;
  let maxInside = 0;
  const work = async () => {
    inside++;
    maxInside = Math.max(maxInside, inside);
    await new Promise((r) => setTimeout(r, 5));
    inside--;
  };
  await Promise.all(Array.from({ length: 10 }, () => locks.withLocks(['/x/a'], work)));
  assert.equal(maxInside, 1);
  let both = 0;
  const slow = (p: string) => locks.withLocks([p], async () => {
    both++;
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(both, 2);
    await new Promise((r) => setTimeout(r, 5));
  });
  await Promise.all([slow('/x/b'), slow('/x/c')]);
});

test('batches taking overlapping sets in different orders do not deadlock', async () => {
  const locks = new LockManager(mkdtempSync(path.join(os.tmpdir(), 'hl-locks-')));
  const tick = () => new Promise((r) => setTimeout(r, 2));
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => locks.withLocks(i % 2 ? ['/p/1', '/p/2', '/p/3'] : ['/p/3', '/p/2', '/p/1'], tick)),
  );
});

test('cross-process: two processes incrementing one counter file under the lock lose no update', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-x-'));
  const counter = path.join(dir, 'counter');
  await fsp.writeFile(counter, '0');
  const lockDir = path.join(dir, 'locks');
  const script = `
    import { LockManager } from ${JSON.stringify(path.join(HERE, '../../src/io/file-lock.ts'))};
    import { promises as fsp } from 'node:fs';
    const locks = new LockManager(${JSON.stringify(lockDir)});
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
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-dead-'));
  const locks = new LockManager(dir);
  const child = spawn(process.execPath, ['-e', '0']);
  const deadPid = await new Promise<number>((r) => child.on('exit', () => r(child.pid!)));
  // Take the lock once to learn the file name, then plant a stale one owned by the dead pid.
  const lockFile = await lockFileOf(locks, dir, '/stale/target');
  await fsp.writeFile(path.join(dir, lockFile), `${deadPid}\n/stale/target\n`);
  let ran = false;
  await locks.withLocks(['/stale/target'], async () => {
    ran = true;
  }, { timeoutMs: 2000 });
  assert.equal(ran, true);
});

test('a lock held by a live process times out with a retryable lock_timeout', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-live-'));
  const locks = new LockManager(dir);
  const lockFile = await lockFileOf(locks, dir, '/live/target');
  await fsp.writeFile(path.join(dir, lockFile), `${process.ppid}\n/live/target\n`);
  await assert.rejects(locks.withLocks(['/live/target'], async () => undefined, { timeoutMs: 100 }), (e: { code?: string; retryable?: boolean }) => e.code === 'lock_timeout' && e.retryable === true);
});

test('a writer killed while holding a lock: its lock and temporary file are cleared at the next start', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-kill-'));
  const lockDir = path.join(dir, 'locks');
  const target = path.join(dir, 'file.txt');
  await fsp.writeFile(target, 'old');
  const script = `
    import { LockManager } from ${JSON.stringify(path.join(HERE, '../../src/io/file-lock.ts'))};
    import { writeFileSync } from 'node:fs';
    const locks = new LockManager(${JSON.stringify(lockDir)});
    await locks.withLocks([${JSON.stringify(target)}], async () => {
      writeFileSync(${JSON.stringify(path.join(dir, '.file.txt.hashline-tmp-deadbeef0000'))}, 'half');
      process.kill(process.pid, 'SIGKILL');
    });`;
  await new Promise<void>((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    p.on('exit', () => resolve());
  });
  assert.ok((await fsp.readdir(dir)).includes('.file.txt.hashline-tmp-deadbeef0000'), 'the kill left a temp file');
  assert.equal((await fsp.readdir(lockDir)).length, 1, 'and its lock');
  await fsp.writeFile(path.join(dir, '.other.txt.hashline-tmp-1'), 'not ours to judge');
  const removed = await new LockManager(lockDir).recoverStale();
  assert.equal(removed, 1);
  assert.deepEqual((await fsp.readdir(dir)).sort(), ['.other.txt.hashline-tmp-1', 'file.txt', 'locks']);
  assert.deepEqual(await fsp.readdir(lockDir), []);
  assert.equal(await fsp.readFile(target, 'utf8'), 'old');
});

/**
 * Locking `real` times out while what the test planted in `dir` stands; after `change()` it is
 * taken, and nothing of it or of any takeover is left in `dir`.
 */
async function refusedUntil(locks: LockManager, dir: string, real: string, change: () => Promise<void>): Promise<void> {
  await assert.rejects(locks.withLocks([real], async () => undefined, { timeoutMs: 300 }), (e: HashlineError) => e.code === 'lock_timeout');
  await change();
  let held = false;
  await locks.withLocks([real], async () => {
    held = true;
  }, { timeoutMs: 5000 });
  assert.ok(held);
  assert.deepEqual(await fsp.readdir(dir), []);
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  return new Promise<number>((r) => child.on('exit', () => r(child.pid!)));
}

/**
 * Six lock managers over one directory (separate managers have separate in-process queues: only
 * the lock file keeps them apart, as for separate processes) contend for one path in each of 40
 * rounds, after `setup(dir, lockFile, round)` has planted what a dead process left; returns how
 * often two of them held it at once. `stagger`: start contenders up to 3 ms apart, so that they
 * are in different steps of a takeover at once.
 */
async function contendAfter(setup: (dir: string, lockFile: string) => Promise<void>, stagger: boolean): Promise<{ dir: string; overlaps: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-takeover-'));
  const managers = Array.from({ length: 6 }, () => new LockManager(dir));
  const lockFile = await lockFileOf(managers[0]!, dir, '/contended');
  let inside = 0;
  let overlaps = 0;
  for (let round = 0; round < 40; round++) {
    await setup(dir, lockFile);
    await Promise.all(
      managers.map(async (m, i) => {
        if (stagger) await new Promise((r) => setTimeout(r, (i * 7 + round) % 4));
        await m.withLocks(['/contended'], async () => {
          if (++inside > 1) overlaps++;
          await new Promise((r) => setImmediate(r));
          await fsp.stat(dir); // a thread-pool round trip while holding
          inside--;
        }, { timeoutMs: 5000 });
      }),
    );
  }
  return { dir, overlaps };
}

test('contenders taking over one dead owner\'s lock at once never hold it together', async () => {
  const owner = await deadPid();
  const { overlaps } = await contendAfter((dir, lockFile) => fsp.writeFile(path.join(dir, lockFile), `${owner}\n/contended\n`), false);
  assert.equal(overlaps, 0);
});

test('contenders finding a takeover guard left by a dead process never hold the lock together', async () => {
  const owner = await deadPid();
  const guardHolder = await deadPid();
  // a lock of a dead owner, and the guard of a process that died while taking it over
  const { dir, overlaps } = await contendAfter(async (d, lockFile) => {
    await fsp.writeFile(path.join(d, lockFile), `${owner}\n/contended\n`);
    await fsp.writeFile(path.join(d, `${lockFile}.takeover.${owner}`), `${guardHolder}\n`);
  }, true);
  assert.equal(overlaps, 0);
  // nothing of the takeovers is left behind
  assert.deepEqual((await fsp.readdir(dir)).filter((n) => n.includes('takeover')), []);
});

test('a takeover under way is never overtaken, even when the one before it died; the finished takeover leaves no guard', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-chain-'));
  const locks = new LockManager(dir);
  const lockFile = await lockFileOf(locks, dir, '/chained');
  const owner = await deadPid();
  const firstHolder = await deadPid();
  const lock = path.join(dir, lockFile);
  const first = `${lock}.takeover.${owner}`;
  const second = `${first}.${firstHolder}`;
  await fsp.writeFile(lock, `${owner}\n/chained\n`);
  // one contender died inside its takeover; another (this process, alive) is inside the next one
  await fsp.writeFile(first, `${firstHolder}\n`);
  await fsp.writeFile(second, `${process.pid}\n`);
  await refusedUntil(locks, dir, '/chained', async () => {
    assert.equal(await fsp.readFile(lock, 'utf8'), `${owner}\n/chained\n`, 'the stale lock was left to the takeover under way');
    assert.deepEqual((await fsp.readdir(dir)).sort(), [lockFile, path.basename(first), path.basename(second)].sort());
    // that contender dies too: the next takes the guard after it and finishes
    await fsp.writeFile(second, `${await deadPid()}\n`);
  });
});

test('at start, guards of takeovers that are over are removed; a guard whose lock is still stale is left to the takeover', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-guards-'));
  const dead = await deadPid();
  const other = await deadPid();
  // a finished takeover's leftover (its lock is gone), and one of a live holder (left alone)
  await fsp.writeFile(path.join(dir, `gone.lock.takeover.${other}`), `${dead}\n`);
  await fsp.writeFile(path.join(dir, `busy.lock.takeover.${other}`), `${process.pid}\n`);
  // a stale lock with a dead guard: the takeover at start walks past it and clears both
  await fsp.writeFile(path.join(dir, 'stale.lock'), `${other}\n/stale\n`);
  await fsp.writeFile(path.join(dir, `stale.lock.takeover.${other}`), `${dead}\n`);
  await new LockManager(dir).recoverStale();
  assert.deepEqual(await fsp.readdir(dir), [`busy.lock.takeover.${other}`]);
});

test('a lock file that names no owner is waited on while fresh and taken over once stale (an older writer killed mid-create)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-empty-'));
  const locks = new LockManager(dir);
  const lockFile = await lockFileOf(locks, dir, '/empty');
  const lock = path.join(dir, lockFile);
  await fsp.writeFile(lock, '');
  await refusedUntil(locks, dir, '/empty', async () => {
    const old = new Date(Date.now() - 60_000);
    await fsp.utimes(lock, old, old);
  });
});

test('at start, stale empty locks and locks written but never linked by dead processes are removed', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-new-'));
  const dead = await deadPid();
  const old = new Date(Date.now() - 60_000);
  await fsp.writeFile(path.join(dir, 'a.lock'), '');
  await fsp.utimes(path.join(dir, 'a.lock'), old, old);
  await fsp.writeFile(path.join(dir, `b.lock.${dead}.0.new`), `${dead}\n/b\n`);
  await fsp.writeFile(path.join(dir, `c.lock.${process.pid}.7.new`), `${process.pid}\n/c\n`);
  await new LockManager(dir).recoverStale();
  assert.deepEqual(await fsp.readdir(dir), [`c.lock.${process.pid}.7.new`]);
});

// on a disk (thread-pool calls) and on a memory file system (synchronous calls), where there is one
for (const base of [os.tmpdir(), ...(existsSync('/dev/shm') ? ['/dev/shm'] : [])]) {
test(`a lock file is never seen without its owner, whatever moment a reader looks (${base})`, async () => {
  const dir = mkdtempSync(path.join(base, 'hl-lock-whole-'));
  // another process takes and releases locks on many paths in a tight loop while this one reads;
  // counted, not timed: it runs until this one has read enough lock files and leaves a stop file
  const stop = path.join(dir, 'stop');
  const script = `
    import { existsSync } from 'node:fs';
    import { LockManager } from ${JSON.stringify(path.join(HERE, '../../src/io/file-lock.ts'))};
    const locks = new LockManager(${JSON.stringify(dir)});
    for (let i = 0; !existsSync(${JSON.stringify(stop)}); i++) await locks.withLocks(['/p' + (i % 64)], async () => undefined);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  let reads = 0;
  let empty = 0;
  let done = false;
  void exited.then(() => (done = true));
  for (let rounds = 0; !done && reads < 200 && rounds < 1_000_000; rounds++) {
    for (const n of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (!n.endsWith('.lock')) continue;
      const text = await fsp.readFile(path.join(dir, n), 'utf8').catch(() => null);
      if (text === null) continue;
      reads++;
      if (!/^\d+\n/.test(text)) empty++;
    }
  }
  await fsp.writeFile(stop, '');
  await exited;
  assert.ok(reads >= 200, `only ${reads} reads`);
  assert.equal(empty, 0, `${empty} of ${reads} lock files were read without their owner`);
});
}
