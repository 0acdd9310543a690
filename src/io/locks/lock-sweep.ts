// The sweep at start: lock files live beside the files they lock, so a writer killed while holding
// one leaves it (and its temporary file) in the tree. The sweep walks the tree under the root (no
// link followed, `.git` and `node_modules` skipped, at most MAX_SWEEP_DIRS directories, in slices
// of SWEEP_SLICE_DIRS with the event loop running in between) and clears
// what dead processes left: locks whose owner is gone (taken over: their temporary files go too),
// temporary files whose writer is gone (an upload spools before it takes its lock),
// staging files never linked into place, and takeover guards of takeovers that are over. A lock
// whose owner runs, or cannot be checked and still beats, is left alone. A dead lock the sweep does
// not reach is taken over by the next writer of its file.

import { lstatSync, readdirSync, unlinkSync, type Dirent } from 'node:fs';
import { isLockName, LOCK_SUFFIX } from '../../core/lock-names.js';
import { TEMP_MARKER } from '../../core/own-names.js';
import { readLock, snapshotId, StaleLocks, stagingOwnerGone, TAKEOVER, tempOwnerGone } from './lock-file.js';
import { ownerText } from './lock-owner.js';

export const MAX_SWEEP_DIRS = 20_000;
/**
 * Directories swept per slice: the event loop runs between slices, and the first slice runs
 * before the sweep's first await (so before the caller's next statement).
 */
export const SWEEP_SLICE_DIRS = 200;
const SKIPPED = new Set(['.git', 'node_modules']);

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

/** A staging file with no owner text yet (its writer was killed before writing): judged by its name. */
function stagingGone(file: string, name: string): boolean {
  try {
    const st = lstatSync(file);
    return st.isFile() && stagingOwnerGone(name, st.mtimeMs);
  } catch {
    return false;
  }
}

/** Clears one directory's dead lock files; returns how many temporary files went with them. */
function sweepDir(dir: string, names: string[], stale: StaleLocks): number {
  let removed = 0;
  const at = (n: string) => (dir === '/' ? `/${n}` : `${dir}/${n}`);
  for (const n of names) {
    if (!n.endsWith(LOCK_SUFFIX)) continue;
    const file = at(n);
    const snap = readLock(file);
    if (snap !== null && stale.isDead(file, snap)) removed += stale.takeOver(file, snap, ownerText('')) ?? 0;
  }
  for (const n of names) {
    // a lock written but never linked into place, by a process killed in between
    if (!n.endsWith('.new')) continue;
    const snap = readLock(at(n));
    if (snap === null) continue;
    if (snap.text === '' ? stagingGone(at(n), n) : stale.isDead(at(n), snap)) unlinkQuietly(at(n));
  }
  for (const n of names) {
    const i = n.indexOf(TAKEOVER);
    if (i === -1 || n.endsWith('.new')) continue;
    // a guard left by a takeover whose holders all died: harmless once its lock is gone or is
    // another than the one it was taken over from
    const lock = readLock(at(n.slice(0, i)));
    const from = n.slice(i + TAKEOVER.length).split('.')[0];
    const guard = readLock(at(n));
    if ((lock === null || snapshotId(lock) !== from) && guard !== null && stale.isDead(at(n), guard)) unlinkQuietly(at(n));
  }
  return removed;
}

/**
 * Removes temporary files whose writer is gone (their names carry its pid and start time), also
 * those written before any lock was taken (an upload spooled, then killed). A regular file only.
 */
function sweepTemps(dir: string, names: string[]): number {
  let removed = 0;
  for (const n of names) {
    const at = dir === '/' ? `/${n}` : `${dir}/${n}`;
    try {
      const st = lstatSync(at);
      if (!st.isFile() || !tempOwnerGone(n.slice(n.indexOf(TEMP_MARKER) + TEMP_MARKER.length), st.mtimeMs)) continue;
      unlinkSync(at);
      removed++;
    } catch {
      // gone already
    }
  }
  return removed;
}

/** Sweeps the tree under `root` (see the header); returns how many temporary files were removed. */
export async function sweepStaleLocks(root: string, stale: StaleLocks, maxDirs = MAX_SWEEP_DIRS): Promise<number> {
  let removed = 0;
  let dirs = 0;
  const stack = [root];
  while (stack.length > 0 && dirs++ < maxDirs) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const locks: string[] = [];
    const temps: string[] = [];
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) stack.push(dir === '/' ? `/${e.name}` : `${dir}/${e.name}`);
      } else if (e.name.includes(LOCK_SUFFIX) && isLockName(e.name)) locks.push(e.name);
      else if (e.isFile() && e.name.includes(TEMP_MARKER)) temps.push(e.name);
    }
    if (locks.length > 0) removed += sweepDir(dir, locks, stale);
    if (temps.length > 0) removed += sweepTemps(dir, temps);
    // the walk is synchronous per directory; let the event loop run between slices
    if (dirs % SWEEP_SLICE_DIRS === 0) await new Promise((r) => setImmediate(r));
  }
  return removed;
}
