// Who owns a lock: a reused pid is recognised, processes of different users exclude each other,
// and an owner in another pid namespace is judged by its heartbeat alone.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import type { HashlineError } from '../../../src/core/errors/errors.js';
import { LockManager } from '../../../src/io/locks/file-lock.js';
import { ownerState, ownerText, parseOwner, selfIdentity } from '../../../src/io/locks/lock-owner.js';
import { asNobody } from '../../helpers/as-nobody.js';
import { skipOrFail } from '../../helpers/needs.js';
import { holdInChild, lockOf, procStart, recordOf, tempDir } from '../../helpers/locks.js';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
});
function dir(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

test('an owner record round-trips and judges this process alive', () => {
  const rec = parseOwner(ownerText('a/b.txt'))!;
  assert.equal(rec.pid, process.pid);
  assert.equal(rec.target, 'a/b.txt');
  assert.equal(rec.start, procStart(process.pid));
  assert.equal(ownerState(rec), 'alive');
  assert.equal(parseOwner('not a pid\n'), null);
  assert.equal(parseOwner(''), null);
});

test('a reused pid: a lock naming a live, unrelated process with another start time is reclaimed', async () => {
  const d = dir('hl-lock-reuse-');
  const target = path.join(d, 'reused.txt');
  // the parent of this test runs under the pid the lock names, but it started at another time
  const unrelated = process.ppid;
  const real = procStart(unrelated);
  assert.equal(ownerState(parseOwner(recordOf(unrelated, real, 'x'))!), 'alive');
  const reused = recordOf(unrelated, String(Number(real) + 1), 'reused.txt');
  assert.equal(ownerState(parseOwner(reused)!), 'dead');
  await fsp.writeFile(lockOf(target), reused);
  let ran = false;
  await new LockManager({ root: d }).withLocks([target], async () => {
    ran = true;
  }, { timeoutMs: 2000 });
  assert.ok(ran);
  assert.equal(existsSync(lockOf(target)), false);
});

test('a zombie owner (exited, not yet reaped) is dead', async (t) => {
  // a shell that runs a child which exits at once, and never reaps it while it sleeps
  const sh = spawn('sh', ['-c', 'sleep 0 & exec sleep 5'], { stdio: 'ignore' });
  try {
    let zombie: number | undefined;
    for (let i = 0; i < 250 && zombie === undefined; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const out = spawnSync('ps', ['-o', 'pid=,stat=', '--ppid', String(sh.pid)], { encoding: 'utf8' }).stdout ?? '';
      const z = out.split('\n').map((l) => l.trim().split(/\s+/)).find((f) => f[1]?.startsWith('Z'));
      if (z) zombie = Number(z[0]);
    }
    if (zombie === undefined) return skipOrFail(t, 'no zombie seen in 5 s (no `ps`, or it was reaped)');
    assert.equal(ownerState(parseOwner(recordOf(zombie, procStart(zombie), 'z'))!), 'dead');
  } finally {
    sh.kill('SIGKILL');
  }
});

test('processes of different users exclude each other on the same file (root and nobody)', async (t) => {
  const nobody = asNobody();
  if ('why' in nobody) return skipOrFail(t, nobody.why);
  const d = dir('hl-lock-users-');
  chmodSync(d, 0o777); // both users may create and remove lock files here
  const target = path.join(d, 'shared.txt');
  const locks = new LockManager({ root: d });
  // nobody holds: root waits and times out
  const other = holdInChild(target, `{ root: ${JSON.stringify(d)} }`, nobody);
  await other.held;
  assert.equal((await fsp.stat(lockOf(target))).uid, 65534);
  await assert.rejects(locks.withLocks([target], async () => undefined, { timeoutMs: 200 }), (e: HashlineError) => e.code === 'lock_timeout');
  other.release();
  assert.equal(await other.exited, 0);
  // released: root takes it, and nobody waits in turn until root releases
  let waiter: ReturnType<typeof holdInChild> | undefined;
  let heldEarly = false;
  await locks.withLocks([target], async () => {
    waiter = holdInChild(target, `{ root: ${JSON.stringify(d)} }`, nobody);
    void waiter.held.then(() => (heldEarly = true), () => undefined);
    await waiter.ready;
    await new Promise((r) => setTimeout(r, 300));
  });
  assert.equal(heldEarly, false, 'nobody got the lock while root held it');
  await waiter!.held;
  waiter!.release();
  assert.equal(await waiter!.exited, 0);
  // nobody killed while holding: root reclaims at once (its pid and start time are checkable)
  const killed = holdInChild(target, `{ root: ${JSON.stringify(d)} }`, nobody);
  await killed.held;
  killed.child.kill('SIGKILL');
  await killed.exited;
  await locks.withLocks([target], async () => undefined, { timeoutMs: 2000 });
  assert.equal(existsSync(lockOf(target)), false);
});

/** `unshare` to run a child in a new pid namespace, when this process may. */
function inNewPidNamespace(): string[] | null {
  const probe = spawnSync('unshare', ['--pid', '--fork', '--kill-child', 'true']);
  return probe.status === 0 ? ['unshare', '--pid', '--fork', '--kill-child'] : null;
}

test('an owner in another pid namespace (a container sharing the tree) keeps its lock while it beats, loses it once dead', async (t) => {
  const prefix = inNewPidNamespace();
  if (prefix === null) return skipOrFail(t, 'needs unshare --pid (root or user namespaces)');
  const d = dir('hl-lock-ns-');
  const target = path.join(d, 'ns.txt');
  const lease = 500;
  const locks = new LockManager({ root: d, leaseMs: lease });
  const holder = holdInChild(target, `{ root: ${JSON.stringify(d)}, heartbeatMs: 50 }`, { prefix });
  await holder.held;
  const rec = parseOwner(await fsp.readFile(lockOf(target), 'utf8'))!;
  assert.notEqual(rec.pidns, selfIdentity().pidns, 'the holder runs in another pid namespace');
  assert.equal(ownerState(rec), 'unknown');
  // held far longer than the lease: never reclaimed while its heartbeat runs
  await assert.rejects(locks.withLocks([target], async () => undefined, { timeoutMs: lease * 3 }), (e: HashlineError) => e.code === 'lock_timeout');
  holder.child.kill('SIGKILL');
  await holder.exited;
  assert.ok(existsSync(lockOf(target)), 'the kill left the lock');
  // dead: taken once unrefreshed for the lease
  await locks.withLocks([target], async () => undefined, { timeoutMs: lease * 6 });
  assert.equal(existsSync(lockOf(target)), false);
});
