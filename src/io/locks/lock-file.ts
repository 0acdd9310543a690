// One lock file: made whole, read, judged stale, taken over. A lock file appears whole: its text
// is written to a staging file of this process's own (`<lock>.<id>.new`), which is hard-linked to
// the lock's name (the link fails with EEXIST while the lock is held) and removed, so a process
// killed at any moment leaves either no lock or a complete one. A lock is stale when its owner is
// gone (lock-owner.ts: pid + start time + boot id), or, when the owner cannot be checked from here,
// when its heartbeat stopped: the holder refreshes the lock's mtime every second or so, and a lock
// unrefreshed for a lease (10 s) is dead, so a slow holder keeps its lock and a dead one loses it.
// A stale lock is removed by one contender at a time, under a takeover guard (see takeOver).

import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, readSync, readdirSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { isPlainRel, lockNameFor } from '../../core/lock-names.js';
import { TEMP_MARKER } from '../../core/own-names.js';
import { ownerState, parseOwner, selfIdentity } from './lock-owner.js';

export interface LockSnapshot {
  text: string;
  ino: number;
  mtimeMs: number;
}

/** `read` of the lock file opened without following a link or blocking, closed after; null when it cannot be opened or read. */
function withLockFd<T>(file: string, read: (fd: number) => T): T | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    return read(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A lock's text and identity, or null when there is none (or it cannot be read). */
export function readLock(file: string): LockSnapshot | null {
  return withLockFd(file, (fd) => {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > 4096) return { text: '', ino: st.ino, mtimeMs: st.mtimeMs };
    return { text: readFileSync(fd, 'utf8'), ino: st.ino, mtimeMs: st.mtimeMs };
  });
}

/** readLockText's buffer: one byte more than a lock's text may hold. */
const TEXT_BUFFER = Buffer.allocUnsafe(4097);

/**
 * A lock's text as readLock gives it (null: none or unreadable; '' for one too large), for its
 * holder's check before it removes the lock: one open, one read, one close. (A regular file's read
 * comes back short only at its end; a FIFO, opened without blocking, or a directory yields no text.)
 */
export function readLockText(file: string): string | null {
  return withLockFd(file, (fd) => {
    const n = readSync(fd, TEXT_BUFFER, 0, TEXT_BUFFER.length, 0);
    return n === TEXT_BUFFER.length ? '' : TEXT_BUFFER.toString('utf8', 0, n);
  });
}

// A staging name carries its writer's pid and start time, like a temp name, so the sweep can tell a
// dead writer's staging file even when it was killed before it wrote anything into it.
const STAGING_ID = `${process.pid}.${selfIdentity().start ?? 'x'}.${randomBytes(4).toString('hex')}`;
let stagingCounter = 0;
/** Errors of link() on a file system that has no hard links: the lock is then created in place. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Creates the lock file `file` holding `text`, whole (see the header); readable by every user
 * whatever the umask, so processes of other users can tell who holds it. Throws EEXIST while it is
 * held. (Synchronous calls: each costs microseconds, a thread-pool round trip more.)
 */
export function createWhole(file: string, text: string): void {
  const staging = `${file}.${STAGING_ID}.${(stagingCounter++).toString(36)}.new`;
  const fd = openSync(staging, CREATE, 0o644);
  try {
    try {
      writeSync(fd, text);
      fchmodSync(fd, 0o644);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(staging, file);
    } catch (e) {
      if (!NO_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
      createInPlace(file, text);
    }
  } finally {
    try {
      unlinkSync(staging);
    } catch {
      // gone already
    }
  }
}

/** Without hard links: exclusive create, then the text (a reader may see it empty for a moment). */
function createInPlace(file: string, text: string): void {
  const fd = openSync(file, CREATE, 0o644);
  try {
    writeSync(fd, text);
    fchmodSync(fd, 0o644);
  } finally {
    closeSync(fd);
  }
}

/**
 * Removes what a writer killed while holding the lock on `real` left beside it: temporary files
 * and links named `.<name>.hashline-tmp-*` (a write is atomic, so the target itself is either old or new).
 */
/** A temp file's writer (`<pid>.<start>.` at the head of its suffix) is gone; unknown writers count as gone once the file sits unwritten past the lease. */
/** Whether the writer of a lock's staging file (`<lock>.<pid>.<start>.<random>.<n>.new`) is gone. */
export function stagingOwnerGone(name: string, mtimeMs: number): boolean {
  const m = /\.(\d+\.(?:\d+|x)\.[0-9a-f]+\.[0-9a-z]+)\.new$/.exec(name);
  return tempOwnerGone(m ? `${m[1]}.` : '', mtimeMs);
}

export function tempOwnerGone(suffix: string, mtimeMs: number): boolean {
  const m = /^(\d+)\.(\d+|x)\./.exec(suffix);
  const me = selfIdentity();
  const state = m ? ownerState({ pid: Number(m[1]), start: m[2] === 'x' ? undefined : m[2], boot: me.boot, pidns: me.pidns }) : 'unknown';
  if (state !== 'unknown') return state === 'dead';
  return Date.now() - mtimeMs > TEMP_LEASE_MS;
}

/** A temp file of a writer that cannot be checked is left alone while written to within this long. */
const TEMP_LEASE_MS = 10_000;

export function removeStaleTemps(real: string): number {
  const dir = path.dirname(real);
  const prefix = `.${path.basename(real)}${TEMP_MARKER}`;
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    if (!n.startsWith(prefix)) continue;
    try {
      const st = lstatSync(path.join(dir, n));
      if (!st.isFile() && !st.isSymbolicLink()) continue; // a link: a tar member's, made under a temp name
      if (!tempOwnerGone(n.slice(prefix.length), st.mtimeMs)) continue;
      unlinkSync(path.join(dir, n));
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}

/** The file a lock (or staging file, or guard) at `file` says it locks, if its name agrees; else null. */
export function lockedTarget(lockFile: string, text: string): string | null {
  const rel = parseOwner(text)?.target;
  if (rel === undefined || !isPlainRel(rel) || lockNameFor(rel) !== path.basename(lockFile)) return null;
  return path.join(path.dirname(lockFile), rel);
}

/** A takeover guard is `<lock>.takeover.<id of the stale lock>`, then `.<id of a dead guard>` per takeover that died. */
export const TAKEOVER = '.takeover.';
/** Contenders that died inside one takeover before anyone gives up and waits for the lock timeout. */
const MAX_TAKEOVER_CHAIN = 8;

/** The same id for every process that reads the same lock file (its inode and text). */
export const snapshotId = (s: LockSnapshot) => createHash('sha256').update(`${s.ino}\n${s.text}`).digest('hex').slice(0, 12);

export interface StaleOptions {
  /** A lock whose owner cannot be checked is dead once unrefreshed this long (default 10 s). */
  leaseMs?: number;
}

export const DEFAULT_LEASE_MS = 10_000;

/** Judges locks stale and takes them over; remembers what it saw of locks it cannot check. */
export class StaleLocks {
  readonly leaseMs: number;
  /** Locks of owners that cannot be checked: when each was first seen in its present state. */
  private readonly seen = new Map<string, { ino: number; mtimeMs: number; text: string; since: number }>();

  constructor(options: StaleOptions = {}) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /**
   * True when the lock `snap` read at `file` belongs to no running owner. An owner this process
   * can check decides; otherwise the heartbeat does: on this boot (one clock) the lock's mtime must
   * be older than the lease; from another host or boot, whose clock may differ, the lock must have
   * stayed unchanged for a lease as this process saw it.
   */
  isDead(file: string, snap: LockSnapshot): boolean {
    const rec = parseOwner(snap.text);
    const state = rec === null ? 'unknown' : ownerState(rec);
    if (state !== 'unknown') return state === 'dead';
    const now = Date.now();
    const myBoot = selfIdentity().boot;
    if (rec !== null && myBoot !== undefined && rec.boot === myBoot) return now - snap.mtimeMs > this.leaseMs;
    const prev = this.seen.get(file);
    if (prev && prev.ino === snap.ino && prev.mtimeMs === snap.mtimeMs && prev.text === snap.text) return now - prev.since > this.leaseMs;
    if (this.seen.size > 10_000) this.seen.clear();
    this.seen.set(file, { ino: snap.ino, mtimeMs: snap.mtimeMs, text: snap.text, since: now });
    return false;
  }

  /**
   * Removes the stale lock `file` (as read in `snap`) with the temporary files its writes left.
   * Several contenders may see the same stale lock at once: only the one that creates the takeover
   * guard (`<lock>.takeover.<id>`, exclusive) acts, and it reads the lock again under the guard, so
   * a lock another contender took meanwhile is never removed. A guard whose holder died inside its
   * takeover is never removed while the stale lock stands (two contenders removing it at once could
   * remove a fresh one): the next contender takes the guard named after it, and whoever completes
   * the takeover removes the whole chain. Returns how many temporary files it removed, or null
   * when another contender is taking over (wait, then try again).
   */
  takeOver(file: string, snap: LockSnapshot, guardText: string): number | null {
    const chain = [`${file}${TAKEOVER}${snapshotId(snap)}`];
    for (;;) {
      const guard = chain[chain.length - 1]!;
      try {
        createWhole(guard, guardText);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return null;
      }
      const holder = readLock(guard);
      // a holder alive, or a guard gone meanwhile: a takeover is under way or over
      if (holder === null || !this.isDead(guard, holder) || chain.length >= MAX_TAKEOVER_CHAIN) return null;
      chain.push(`${guard}.${snapshotId(holder)}`);
    }
    let removed = 0;
    try {
      const now = readLock(file);
      if (now !== null && now.ino === snap.ino && now.text === snap.text && this.isDead(file, now)) {
        const target = lockedTarget(file, now.text);
        if (target !== null) removed = removeStaleTemps(target);
        try {
          unlinkSync(file);
        } catch {
          // gone already
        }
      }
    } finally {
      // the stale lock is gone, so no guard of this chain can be needed again: mine last
      for (const g of chain.reverse()) {
        try {
          unlinkSync(g);
        } catch {
          // gone already
        }
      }
    }
    this.seen.delete(file);
    return removed;
  }
}
