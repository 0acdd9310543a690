// The sweep at start: what dead writers left beside their files goes; nothing of a live process does.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { tempNameFor } from '../../../src/io/atomic-write.js';
import { LockManager } from '../../../src/io/locks/file-lock.js';
import { readLock, snapshotId } from '../../../src/io/locks/lock-file.js';
import { engineFor } from '../../helpers/engine.js';
import { deadPid, lockOf, LOCK_MODULE, procStart, recordOf, tempDir } from '../../helpers/locks.js';

const ATOMIC_MODULE = path.resolve(path.dirname(LOCK_MODULE), '../atomic-write.ts');

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
});
function dir(): string {
  const d = tempDir('hl-lock-sweep-');
  dirs.push(d);
  return d;
}

test('a writer killed while holding a lock: its lock and temporary file beside the file are cleared when hashline starts', async () => {
  const root = dir();
  await fsp.mkdir(path.join(root, 'src'));
  const target = path.join(root, 'src/file.txt');
  await fsp.writeFile(target, 'old');
  const script = `
    import { LockManager } from ${JSON.stringify(LOCK_MODULE)};
    import { tempNameFor } from ${JSON.stringify(ATOMIC_MODULE)};
    import { renameSync, writeFileSync } from 'node:fs';
    const locks = new LockManager({ root: ${JSON.stringify(root)} });
    await locks.withLocks([${JSON.stringify(target)}], async () => {
      // a temp file named as a write names it (with this writer's pid and start time)
      writeFileSync(tempNameFor(${JSON.stringify(target)}), 'half');
      process.kill(process.pid, 'SIGKILL');
    });`;
  await new Promise<void>((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    p.on('exit', () => resolve());
  });
  const left = (await fsp.readdir(path.join(root, 'src'))).sort();
  assert.equal(left.length, 3);
  assert.match(left[0]!, /^\.file\.txt\.hashline-tmp-\d+\.\d+\./);
  assert.deepEqual(left.slice(1), ['.file.txt.hashline.lock', 'file.txt']);
  await fsp.writeFile(path.join(root, 'src/.other.txt.hashline-tmp-1'), 'not ours to judge');
  // a live writer's upload into the same file, spooling before it takes the lock: never removed
  const liveTemp = tempNameFor(target);
  await fsp.writeFile(liveTemp, 'live upload');
  await engineFor(root); // the engine sweeps at start
  assert.deepEqual((await fsp.readdir(path.join(root, 'src'))).sort(), ['.other.txt.hashline-tmp-1', path.basename(liveTemp), 'file.txt'].sort());
  assert.equal(await fsp.readFile(target, 'utf8'), 'old');
});

test('the sweep leaves live locks, fresh locks it cannot judge, and their temporary files alone', async () => {
  const root = dir();
  const live = path.join(root, 'live.txt');
  const foreign = path.join(root, 'foreign.txt');
  await fsp.writeFile(lockOf(live), recordOf(process.ppid, procStart(process.ppid), 'live.txt'));
  await fsp.writeFile(path.join(root, '.live.txt.hashline-tmp-1'), 'being written');
  // an owner on this boot in another pid namespace, its heartbeat fresh
  await fsp.writeFile(lockOf(foreign), recordOf(7, '1', 'foreign.txt').replace(/pidns=.*\n/, 'pidns=pid:[1]\n'));
  // a lock written but not yet linked, by a live process
  const staging = `${lockOf(live)}.abc0.new`;
  await fsp.writeFile(staging, recordOf(process.pid, procStart(process.pid), 'live.txt'));
  const before = (await fsp.readdir(root)).sort();
  assert.equal(await new LockManager({ root }).recoverStale(), 0);
  assert.deepEqual((await fsp.readdir(root)).sort(), before);
  // the foreign lock's heartbeat stops: after the lease it is dead
  const old = new Date(Date.now() - 60_000);
  utimesSync(lockOf(foreign), old, old);
  await new LockManager({ root }).recoverStale();
  assert.deepEqual((await fsp.readdir(root)).sort(), before.filter((n) => n !== path.basename(lockOf(foreign))));
});

test('at start, staging files of dead processes and guards of takeovers that are over go; a guard of a takeover under way stays', async () => {
  const root = dir();
  const dead = await deadPid();
  const rec = (pid: number, t: string) => recordOf(pid, pid === process.pid ? procStart(pid) : '1', t);
  // a lock written but never linked, by a dead process
  await fsp.writeFile(`${lockOf(path.join(root, 'b'))}.0a0b.new`, rec(dead, 'b'));
  // a finished takeover's leftover (its lock is gone), and one of a live holder (left alone)
  await fsp.writeFile(`${lockOf(path.join(root, 'gone'))}.takeover.0123456789ab`, rec(dead, ''));
  await fsp.writeFile(lockOf(path.join(root, 'busy')), rec(await deadPid(), 'busy'));
  const busyGuard = `${lockOf(path.join(root, 'busy'))}.takeover.${snapshotId(readLock(lockOf(path.join(root, 'busy')))!)}`;
  await fsp.writeFile(busyGuard, rec(process.pid, ''));
  // a stale lock with a dead guard: the takeover at start walks past it and clears both
  const stale = lockOf(path.join(root, 'stale'));
  await fsp.writeFile(stale, rec(await deadPid(), 'stale'));
  await fsp.writeFile(`${stale}.takeover.${snapshotId(readLock(stale)!)}`, rec(dead, ''));
  // staging files still empty (the writer was killed between creating and writing them): judged by
  // the pid and start time in their names; a live process's stays
  await fsp.writeFile(`${lockOf(path.join(root, 'c'))}.${dead}.1.0a0b0c0d.0.new`, '');
  const liveStaging = `${lockOf(path.join(root, 'd'))}.${process.pid}.${procStart(process.pid)}.0a0b0c0d.0.new`;
  await fsp.writeFile(liveStaging, '');
  await new LockManager({ root }).recoverStale();
  assert.deepEqual(
    (await fsp.readdir(root)).sort(),
    [path.basename(lockOf(path.join(root, 'busy'))), path.basename(busyGuard), path.basename(liveStaging)].sort(),
  );
});

test('the sweep reaches nested directories, skips .git and node_modules, and follows no link', async () => {
  const root = dir();
  const outside = dir();
  const dead = await deadPid();
  for (const d of ['a/b/c', '.git/x', 'node_modules/m']) await fsp.mkdir(path.join(root, d), { recursive: true });
  await fsp.symlink(outside, path.join(root, 'out'));
  const plant = (file: string) => fsp.writeFile(lockOf(file), recordOf(dead, '1', path.basename(file)));
  for (const f of ['a/b/c/deep.txt', '.git/x/g', 'node_modules/m/n']) await plant(path.join(root, f));
  await plant(path.join(outside, 'o.txt'));
  await new LockManager({ root }).recoverStale();
  assert.deepEqual(await fsp.readdir(path.join(root, 'a/b/c')), []);
  assert.equal((await fsp.readdir(path.join(root, '.git/x'))).length, 1);
  assert.equal((await fsp.readdir(path.join(root, 'node_modules/m'))).length, 1);
  assert.equal((await fsp.readdir(outside)).length, 1, 'nothing outside the root was touched');
});

test('a temporary file whose writer died before taking any lock (an upload spooled first) is removed at start', async () => {
  const root = dir();
  const target = path.join(root, 'upload.bin');
  const script = `
    import { tempNameFor } from ${JSON.stringify(ATOMIC_MODULE)};
    import { writeFileSync } from 'node:fs';
    writeFileSync(tempNameFor(${JSON.stringify(target)}), 'half an upload');
    process.kill(process.pid, 'SIGKILL');`;
  await new Promise<void>((resolve) => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' }).on('exit', () => resolve()));
  assert.equal((await fsp.readdir(root)).length, 1, 'the dead writer left its temp file');
  const mine = tempNameFor(target);
  await fsp.writeFile(mine, 'a live upload');
  await engineFor(root);
  assert.deepEqual(await fsp.readdir(root), [path.basename(mine)], "the dead writer's temp is gone, the live one stays");
});
