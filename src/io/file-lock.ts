// Locks per real path: an in-process queue (so concurrent calls in one server never interleave)
// plus a lock file per path in a private directory (so two hashline processes on one tree never
// interleave writes). Batches take their locks in sorted order, so two batches cannot deadlock.
// A lock file whose owning process is gone is taken over, by one contender at a time (see
// takeOver: without that, two contenders that saw the same dead owner could both end up holding
// the lock, which test/io/file-lock.test.ts showed), and a takeover guard is never removed while
// the lock it guards is stale. On a memory file system (the default
// /dev/shm) lock files are created and removed with synchronous calls: a few microseconds each,
// where a thread-pool round trip per call made a 2,000-file rewrite spend ~0.4 s on its locks.

import { createHash } from 'node:crypto';
import { closeSync, constants, promises as fsp, linkSync, openSync, statfsSync, statSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HashlineError } from '../core/errors.js';
import { TEMP_MARKER } from './atomic-write.js';

export interface LockOptions {
  signal?: AbortSignal | undefined;
  /** Give up after this long waiting for another process (default 10 s). */
  timeoutMs?: number;
}

/** tmpfs (/dev/shm) where there is one: a lock file there costs no disk write. Every hashline process of a user agrees on it. */
export function defaultLockDir(): string {
  const uid = process.getuid?.() ?? 'u';
  let base = os.tmpdir();
  try {
    if (statSync('/dev/shm').isDirectory()) base = '/dev/shm';
  } catch {
    // no tmpfs: the system temp directory
  }
  return path.join(base, `hashline-locks-${uid}`);
}

/**
 * Removes what a writer killed while holding the lock on `real` left beside it: temporary files
 * and links named `.<name>.hashline-tmp-*` (a write is atomic, so the target itself is either old or new).
 */
export async function removeStaleTemps(real: string): Promise<number> {
  const dir = path.dirname(real);
  const prefix = `.${path.basename(real)}${TEMP_MARKER}`;
  let removed = 0;
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    try {
      const st = await fsp.lstat(path.join(dir, n));
      if (!st.isFile() && !st.isSymbolicLink()) continue; // a link: a tar member's, made under a temp name
      await fsp.unlink(path.join(dir, n));
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}

function alive(pid: number): boolean {
  if (pid === NOBODY) return false; // kill(0) would signal this process's own group
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The owner of a lock (or takeover guard) file: the pid written first in it; null when the file is
 * missing or holds no pid. A file that has held no pid for EMPTY_GRACE_MS is NOBODY's: lock files
 * are made whole before they appear (see createSync), so only an older hashline killed between
 * creating and writing one leaves it so, and nothing would ever remove it otherwise.
 */
async function ownerOf(file: string): Promise<number | null> {
  const text = await fsp.readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const pid = Number.parseInt(text.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0) return pid;
  const st = await fsp.lstat(file).catch(() => null);
  return st !== null && Date.now() - st.mtimeMs > EMPTY_GRACE_MS ? NOBODY : null;
}

/** The owner of a lock file that names none: never alive. */
const NOBODY = 0;
const EMPTY_GRACE_MS = 2000;

/** statfs types of file systems held in memory (tmpfs, ramfs), where a create never waits on a disk. */
const MEMORY_FS = new Set([0x01021994, 0x858458f6]);

function inMemory(dir: string): boolean {
  try {
    return MEMORY_FS.has(statfsSync(dir).type);
  } catch {
    return false;
  }
}

const LOCK_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** A takeover guard is `<lock>.takeover.<dead owner>`, then `.<dead holder>` for each takeover that died. */
const TAKEOVER = '.takeover.';
/** Contenders that died inside one takeover before anyone gives up and waits for the lock timeout. */
const MAX_TAKEOVER_CHAIN = 8;

/** Suffix of the file a lock is written to before it is linked into place: `<lock>.<pid>.<n>.new`. */
const NEW_SUFFIX = '.new';
let newCounter = 0;
const newNameFor = (file: string) => `${file}.${process.pid}.${newCounter++}${NEW_SUFFIX}`;

/**
 * Creates the lock file `file` holding `text`, whole: the text is written to a file of this
 * process's own, which is then hard-linked to `file` (the link fails with EEXIST when the lock is
 * held) and removed. A process killed at any point leaves either no lock or a complete one (and
 * at worst its own `.new` file, which recoverStale removes). Synchronous calls, for a memory file system.
 */
function createSync(file: string, text: string): void {
  const fresh = newNameFor(file);
  const fd = openSync(fresh, LOCK_FLAGS, 0o600);
  try {
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    linkSync(fresh, file);
  } finally {
    try {
      unlinkSync(fresh);
    } catch {
      // gone already
    }
  }
}

/** createSync with thread-pool calls, for a lock directory on a disk. */
async function createAsync(file: string, text: string): Promise<void> {
  const fresh = newNameFor(file);
  try {
    const h = await fsp.open(fresh, LOCK_FLAGS, 0o600);
    try {
      await h.writeFile(text);
    } finally {
      await h.close();
    }
    await fsp.link(fresh, file);
  } finally {
    await fsp.unlink(fresh).catch(() => undefined);
  }
}

export class LockManager {
  private readonly dir: string;
  private readonly queues = new Map<string, Promise<void>>();
  private dirReady: Promise<void> | undefined;
  /** The lock directory is on a memory file system (set once it exists). */
  private memory = false;

  constructor(dir: string = defaultLockDir()) {
    this.dir = dir;
  }

  private async ensureDir(): Promise<void> {
    this.dirReady ??= (async () => {
      await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
      const st = await fsp.lstat(this.dir);
      const uid = process.getuid?.();
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) {
        throw new HashlineError('io_error', `lock directory \`${this.dir}\` is not a private directory of this user`);
      }
      this.memory = inMemory(this.dir);
    })();
    return this.dirReady;
  }

  private lockFile(real: string): string {
    return path.join(this.dir, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.lock`);
  }

  /**
   * Queues in-process behind earlier holders of `key`; resolves to the release function. Waits at
   * most `timeoutMs` (the cross-process wait's deadline and error) or until `signal` aborts; a
   * waiter that gives up releases its place at once, so those behind it still follow in order.
   */
  private async localAcquire(key: string, options: LockOptions): Promise<() => void> {
    const prev = this.queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.queues.set(key, tail);
    // forgotten once everyone queued so far is through (not when a waiter gives up: its
    // predecessor may still hold the lock)
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await Promise.race([
        prev,
        new Promise<never>((_, reject) => {
          // the deadline and coded error of the cross-process wait (fileAcquire)
          const error = () =>
            new HashlineError('lock_timeout', `another call holds the lock on \`${key}\`; try again`, {
              retryable: true,
              details: { path: key, owner: process.pid },
            });
          timer = setTimeout(() => reject(error()), options.timeoutMs ?? 10_000);
          onAbort = () => reject(new HashlineError('aborted', 'aborted'));
          if (options.signal?.aborted) onAbort();
          else options.signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } catch (e) {
      release();
      throw e;
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    }
    return release;
  }

  private async fileAcquire(real: string, options: LockOptions): Promise<() => Promise<void> | void> {
    await this.ensureDir();
    const file = this.lockFile(real);
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    let wait = 2;
    for (;;) {
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      try {
        const text = `${process.pid}\n${real}\n`;
        if (this.memory) {
          createSync(file, text);
          return () => {
            try {
              unlinkSync(file);
            } catch {
              // gone already
            }
          };
        }
        await createAsync(file, text);
        return async () => {
          await fsp.unlink(file).catch(() => undefined);
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = await ownerOf(file);
      if (owner !== null && !alive(owner)) {
        // The owner died holding the lock: clear what its write left, then take the lock over.
        if ((await this.takeOver(file, real, owner)) !== null) continue;
      }
      if (Date.now() > deadline) {
        throw new HashlineError('lock_timeout', `another process holds the lock on \`${real}\`; try again`, {
          retryable: true,
          details: { path: real, owner },
        });
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 50);
    }
  }

  /**
   * Removes `file`, the lock on `real` of the dead process `owner`, with the temporary files its
   * writes left. Several contenders may see the same dead owner at once: only the one that creates
   * the takeover guard (`<lock>.takeover.<owner>`, exclusive) acts, and it re-reads the lock under
   * the guard, so a lock another contender took meanwhile is never removed. A guard whose holder
   * died inside its takeover is never removed while the stale lock stands (two contenders removing
   * it at once could remove a fresh one): the next contender takes the guard named after it
   * (`<guard>.<dead holder>`), and whoever completes the takeover removes the whole chain. Returns
   * how many temporary files it removed, or null when another contender is taking over (wait, then
   * try again).
   */
  private async takeOver(file: string, real: string, owner: number): Promise<number | null> {
    const chain = [`${file}${TAKEOVER}${owner}`];
    for (;;) {
      const guard = chain[chain.length - 1]!;
      try {
        if (this.memory) createSync(guard, `${process.pid}\n`);
        else await createAsync(guard, `${process.pid}\n`);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const holder = await ownerOf(guard);
      // a holder alive, or one that has not written its pid yet: a takeover is under way
      if (holder === null || alive(holder) || chain.length >= MAX_TAKEOVER_CHAIN) return null;
      chain.push(`${guard}.${holder}`);
    }
    let removed = 0;
    try {
      if ((await ownerOf(file)) === owner && !alive(owner)) {
        // (a lock left empty names no path: `real` is the caller's, or unknown at start)
        if (real !== '') removed = await removeStaleTemps(real);
        await fsp.unlink(file).catch(() => undefined);
      }
    } finally {
      // the stale lock is gone, so no guard of this chain can be needed again: mine last
      for (const g of chain.reverse()) await fsp.unlink(g).catch(() => undefined);
    }
    return removed;
  }

  /**
   * Clears every lock whose owner is dead, with the temporary files its writes left behind, and
   * the takeover guards of takeovers that are over. Run at start; returns how many temporary files
   * were removed.
   */
  async recoverStale(): Promise<number> {
    await this.ensureDir();
    let removed = 0;
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith('.lock')) continue;
      const file = path.join(this.dir, name);
      const real = (await fsp.readFile(file, 'utf8').catch(() => '')).split('\n')[1] ?? '';
      const owner = await ownerOf(file);
      if (owner === null || alive(owner)) continue;
      removed += (await this.takeOver(file, real, owner)) ?? 0;
    }
    for (const name of names) {
      // a lock written but never linked into place, by a process killed in between
      const m = /\.(\d+)\.\d+\.new$/.exec(name);
      if (m && !alive(Number(m[1]))) await fsp.unlink(path.join(this.dir, name)).catch(() => undefined);
    }
    for (const name of names) {
      const at = name.indexOf(TAKEOVER);
      if (at === -1 || name.endsWith(NEW_SUFFIX)) continue;
      // a guard left by a takeover whose holders all died: harmless once its lock is gone or
      // belongs to someone other than the owner it was taken over from
      const lock = path.join(this.dir, name.slice(0, at));
      const from = Number.parseInt(name.slice(at + TAKEOVER.length), 10);
      const guard = path.join(this.dir, name);
      const holder = await ownerOf(guard);
      if ((await ownerOf(lock)) !== from && holder !== null && !alive(holder)) await fsp.unlink(guard).catch(() => undefined);
    }
    return removed;
  }

  /** Runs `fn` holding the locks of every path in `reals` (deduplicated, taken in sorted order). */
  async withLocks<T>(reals: readonly string[], fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    const keys = [...new Set(reals)].sort();
    const releases: Array<() => Promise<void> | void> = [];
    try {
      for (const key of keys) {
        releases.push(await this.localAcquire(key, options));
        releases.push(await this.fileAcquire(key, options));
      }
      return await fn();
    } finally {
      for (const r of releases.reverse()) await r();
    }
  }
}
