// Locks per real path: an in-process queue (so concurrent calls in one server never interleave)
// plus a lock file beside the file (so hashline processes of any user, and containers sharing the
// tree, never interleave writes: the lock is a property of the file, see core/lock-names.ts and
// io/locks/lock-place.ts). Batches take their locks de-duplicated and in sorted order, so two batches
// cannot deadlock. A lock file records its owner (pid, start time, boot id, pid namespace:
// io/locks/lock-owner.ts) and is made whole before it appears; while held, its mtime is refreshed every
// heartbeat. A lock whose owner is gone, or (when the owner cannot be checked from here) whose
// heartbeat stopped for a lease, is taken over by one contender at a time (io/locks/lock-file.ts); a
// live owner's lock is waited on, then answered with the retryable `lock_timeout`.

import { lstatSync, unlinkSync, utimesSync } from 'node:fs';
import { errnoText, HashlineError, errnoDetails } from '../../core/errors/errors.js';
import { isWithin } from '../../core/config/path-policy.js';
import { createWhole, readLock, readLockText, removeStaleTemps, StaleLocks } from './lock-file.js';
import { ownerText, parseOwner } from './lock-owner.js';
import { lockPlace, type LockPlace } from './lock-place.js';
import { sweepStaleLocks } from './lock-sweep.js';

export { removeStaleTemps };

export interface LockOptions {
  signal?: AbortSignal | undefined;
  /** Give up after this long waiting for another process (default 10 s). */
  timeoutMs?: number;
}

export interface LockManagerOptions {
  /** The project root (real path): bounds the search for a lock's place, and is what recoverStale sweeps. */
  root?: string | undefined;
  /** How paths are named in errors (default: as given). */
  display?: ((abs: string) => string) | undefined;
  /** A lock whose owner cannot be checked is dead once unrefreshed this long (default 10 s). */
  leaseMs?: number | undefined;
  /** How often a held lock's mtime is refreshed (default 1 s). */
  heartbeatMs?: number | undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lock files held by any manager of this process (file → text): one of ours found on disk but not here is a leftover. */
const heldHere = new Map<string, string>();
/** Locks this process let go whose file could not be removed (its folder refused): removed again every second until gone. */
const leftovers = new Map<string, string>();
let leftoverTimer: NodeJS.Timeout | undefined;

/** Removes `file` if it is still the lock this process made; false when that failed (it is still there). */
function unlinkOwn(file: string, text: string): boolean {
  // (the text names this process by pid and start time, and the file: no other process writes it)
  if (readLockText(file) !== text) return true;
  try {
    unlinkSync(file);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Lets go of a lock file; one that cannot be removed now is removed again later, so no process waits on it for long. */
function letGo(file: string, text: string): void {
  heldHere.delete(file);
  if (unlinkOwn(file, text)) return;
  leftovers.set(file, text);
  leftoverTimer ??= setInterval(() => {
    for (const [f, t] of leftovers) if (unlinkOwn(f, t)) leftovers.delete(f);
    if (leftovers.size === 0) {
      clearInterval(leftoverTimer);
      leftoverTimer = undefined;
    }
  }, 1000).unref();
}

/** Create errors that mean the place changed under us (a directory appeared or went): look again. */
const MOVED = new Set(['ENOENT', 'ENOTDIR']);

export class LockManager {
  private readonly queues = new Map<string, Promise<void>>();
  private readonly root: string | undefined;
  private readonly display: (abs: string) => string;
  private readonly stale: StaleLocks;
  private readonly heartbeatMs: number;
  /** Lock files this manager holds, with their texts, refreshed every heartbeat. */
  private readonly held = new Map<string, string>();
  private beat: NodeJS.Timeout | undefined;

  constructor(options: LockManagerOptions = {}) {
    this.root = options.root;
    this.display = options.display ?? ((abs) => abs);
    this.stale = new StaleLocks({ ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }) });
    this.heartbeatMs = options.heartbeatMs ?? 1000;
  }

  /**
   * Queues in-process behind earlier holders of `key`; resolves to the release function. Waits at
   * most `timeoutMs` (the cross-process wait's deadline and error) or until `signal` aborts; a
   * waiter that gives up releases its place at once, so those behind it still follow in order.
   */
  private async localAcquire(key: string, options: LockOptions): Promise<() => void> {
    const queued = this.queues.get(key);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    if (queued === undefined) {
      // nobody ahead (the common case): the place is taken at once, with no wait to time or abort
      // (an aborted call is refused by the cross-process step, as when the wait was won at once)
      this.queues.set(key, mine);
      void mine.then(() => {
        if (this.queues.get(key) === mine) this.queues.delete(key);
      });
      return release;
    }
    const prev = queued;
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
            new HashlineError('lock_timeout', `another call holds the lock on \`${this.display(key)}\`; try again`, {
              retryable: true,
              details: { path: this.display(key), owner: process.pid },
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

  private floorFor(real: string): string | undefined {
    return this.root !== undefined && isWithin(real, this.root) ? this.root : undefined;
  }

  /**
   * After creating its lock file at `place`: null when the lock is ours, else why not. A place in
   * an ancestor is wrong once the directory below it exists ('moved'); a lock on the same file in
   * an ancestor above the place, taken by a writer that is creating the missing directories, must
   * be waited for ('busy'; a dead one is taken over).
   */
  private crossCheck(place: LockPlace): 'moved' | 'busy' | null {
    if (place.probe !== undefined) {
      try {
        if (lstatSync(place.probe).isDirectory()) return 'moved';
      } catch {
        // still missing: the place holds
      }
    }
    for (const file of place.above) {
      // (almost always missing: a check that throws nothing)
      if (lstatSync(file, { throwIfNoEntry: false }) === undefined) continue;
      const snap = readLock(file);
      if (snap === null) continue;
      if (!this.stale.isDead(file, snap) || this.stale.takeOver(file, snap, ownerText('')) === null) return 'busy';
    }
    return null;
  }

  private async fileAcquire(real: string, options: LockOptions): Promise<() => void> {
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    let wait = 2;
    // the parent almost always exists: try beside the file first, and look for the place only when that fails
    let parentExists = true;
    for (;;) {
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      const place = lockPlace(real, this.floorFor(real), parentExists);
      const text = ownerText(place.rel);
      let created = false;
      let moved = false;
      try {
        createWhole(place.file, text);
        created = true;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? '';
        if (code !== 'EEXIST' && !MOVED.has(code)) {
          throw new HashlineError('io_error', `cannot create the lock file of \`${this.display(real)}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
        }
        moved = code !== 'EEXIST';
        if (moved && parentExists) {
          parentExists = false; // no parent: find the place and try again at once
          continue;
        }
        // a directory of the place went or came meanwhile: look again after the pause below
      }
      let owner: number | undefined;
      if (created) {
        const conflict = this.crossCheck(place);
        if (conflict === null) return this.hold(place.file, text);
        unlinkOwn(place.file, text);
        if (conflict === 'moved') continue;
      } else if (!moved) {
        const snap = readLock(place.file);
        if (snap === null) continue; // released meanwhile: try again at once
        if (snap.text === text && !heldHere.has(place.file)) {
          // this process's own lock, let go but not removed (its folder refused the unlink): ours again
          const conflict = this.crossCheck(place);
          if (conflict === null) return this.hold(place.file, text);
          letGo(place.file, text);
          if (conflict === 'moved') continue;
        }
        owner = parseOwner(snap.text)?.pid;
        // the owner is gone: clear what its write left, then take the lock over
        if (this.stale.isDead(place.file, snap) && this.stale.takeOver(place.file, snap, ownerText(place.rel)) !== null) continue;
      }
      if (Date.now() > deadline) {
        const display = this.display(real);
        throw new HashlineError('lock_timeout', `another process holds the lock on \`${display}\`; try again`, {
          retryable: true,
          details: { path: display, ...(owner === undefined ? {} : { owner }) },
        });
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 50);
    }
  }

  /** Records a lock as held (its heartbeat starts with the first) and returns its release. */
  private hold(file: string, text: string): () => void {
    this.held.set(file, text);
    heldHere.set(file, text);
    leftovers.delete(file);
    this.beat ??= setInterval(() => this.refresh(), this.heartbeatMs).unref();
    return () => {
      this.held.delete(file);
      if (this.held.size === 0 && this.beat !== undefined) {
        clearInterval(this.beat);
        this.beat = undefined;
      }
      letGo(file, text);
    };
  }

  /** The heartbeat: every held lock's mtime set to now, so watchers that cannot check the owner see it alive. */
  private refresh(): void {
    const now = new Date();
    // (no check that each is still ours: only a holder judged dead loses its lock, and refreshing
    // the new holder's lock then is harmless)
    for (const file of this.held.keys()) {
      try {
        utimesSync(file, now, now);
      } catch {
        // gone: nothing to refresh
      }
    }
  }

  /**
   * Clears the locks under the root whose owners are dead, with the temporary files their writes
   * left behind, and what takeovers and creations of dead processes left (io/locks/lock-sweep.ts). Run at
   * start; returns how many temporary files were removed.
   */
  async recoverStale(): Promise<number> {
    if (this.root === undefined) return 0;
    return sweepStaleLocks(this.root, this.stale);
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
