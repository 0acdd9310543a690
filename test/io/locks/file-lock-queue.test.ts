// The in-process lock queue has the cross-process lock's deadline and coded error: a call queued
// behind a holder in this process gives up after `timeoutMs` with `lock_timeout` (or `aborted`
// when its signal fires) instead of waiting without end, and its giving up neither lets anyone
// in early nor breaks the order of those queued behind it.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { isHashlineError } from '../../../src/core/errors/errors.js';
import { LockManager } from '../../../src/io/locks/file-lock.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-lock-queue-'));
after(() => fsp.rm(dir, { recursive: true, force: true }));

/** Holds the lock on `key` until the returned release is called. */
async function hold(locks: LockManager, key: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const inside = new Promise<void>((r) => (entered = r));
  const done = locks.withLocks([key], async () => {
    entered();
    await gate;
  });
  await inside;
  return { release, done };
}

test('a waiter behind a holder in this process gives up with lock_timeout; the lock stays the holder\'s', async () => {
  const root = path.join(dir, 'a');
  mkdirSync(root, { recursive: true });
  const locks = new LockManager({ root, display: (abs) => abs.slice(root.length) });
  const at = (n: string) => root + n;
  const h = await hold(locks, at('/p'));
  let ran = false;
  await assert.rejects(
    locks.withLocks([at('/p')], async () => void (ran = true), { timeoutMs: 50 }),
    (e: unknown) => isHashlineError(e) && e.code === 'lock_timeout' && e.retryable && /holds the lock on `\/p`; try again$/.test(e.message),
  );
  assert.equal(ran, false);
  // a newcomer after the give-up still waits for the holder (the queue was not dropped)
  const order: string[] = [];
  const late = locks.withLocks([at('/p')], async () => void order.push('late'), { timeoutMs: 5000 });
  await new Promise((r) => setImmediate(r));
  order.push('holder releases');
  h.release();
  await h.done;
  await late;
  assert.deepEqual(order, ['holder releases', 'late']);
});

test('those queued behind a waiter that gives up keep their order', async () => {
  const root = path.join(dir, 'b');
  mkdirSync(root, { recursive: true });
  const locks = new LockManager({ root, display: (abs) => abs.slice(root.length) });
  const at = (n: string) => root + n;
  const h = await hold(locks, at('/q'));
  const order: string[] = [];
  const quitter = locks.withLocks([at('/q')], async () => void order.push('quitter'), { timeoutMs: 30 });
  const second = locks.withLocks([at('/q')], async () => void order.push('second'), { timeoutMs: 5000 });
  const third = locks.withLocks([at('/q')], async () => void order.push('third'), { timeoutMs: 5000 });
  await assert.rejects(quitter, { code: 'lock_timeout' });
  assert.deepEqual(order, []);
  h.release();
  await Promise.all([h.done, second, third]);
  assert.deepEqual(order, ['second', 'third']);
});

test('a queued waiter whose signal aborts gives up with `aborted`', async () => {
  const root = path.join(dir, 'c');
  mkdirSync(root, { recursive: true });
  const locks = new LockManager({ root, display: (abs) => abs.slice(root.length) });
  const at = (n: string) => root + n;
  const h = await hold(locks, at('/r'));
  const ac = new AbortController();
  const waiting = locks.withLocks([at('/r')], async () => undefined, { signal: ac.signal, timeoutMs: 5000 });
  ac.abort();
  await assert.rejects(waiting, { code: 'aborted' });
  h.release();
  await h.done;
  // and the lock is free afterwards
  assert.equal(await locks.withLocks([at('/r')], async () => 'free', { timeoutMs: 1000 }), 'free');
});

test('a lock nobody in this process holds is taken at once: no timer is armed for a wait, and the next caller still queues behind it', async () => {
  const root = path.join(dir, 'fast');
  mkdirSync(root, { recursive: true });
  const locks = new LockManager({ root });
  const real = globalThis.setTimeout;
  let armed = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    armed++;
    return real(...args);
  }) as typeof setTimeout;
  let h: Awaited<ReturnType<typeof hold>>;
  try {
    h = await hold(locks, path.join(root, 'f'));
  } finally {
    globalThis.setTimeout = real;
  }
  assert.equal(armed, 0);
  const order: string[] = [];
  const next = locks.withLocks([path.join(root, 'f')], async () => void order.push('next'), { timeoutMs: 5000 });
  await new Promise((r) => setImmediate(r));
  order.push('holder releases');
  h.release();
  await h.done;
  await next;
  assert.deepEqual(order, ['holder releases', 'next']);
  // an aborted call finds the lock free and is still refused (by the cross-process step)
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(locks.withLocks([path.join(root, 'f')], async () => undefined, { signal: ac.signal }), (e: unknown) => isHashlineError(e) && e.code === 'aborted');
});
