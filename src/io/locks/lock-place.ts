// Where the lock of a file lives (names: core/lock-names.ts). The lock of `dir/name` is kept in
// `dir`; when `dir` does not exist yet (a write that will create it), in the nearest existing
// ancestor, under a hashed name. A place in an ancestor is only right while the directories below
// it are still missing, and a writer holding it may create them: so whoever takes a lock checks,
// after creating its lock file, that no ancestor above its place holds a lock on the same file,
// and whoever took an ancestor's place checks that the directory below it is still missing (each
// writes its own file before it looks for the other's, so at least one of two racers sees the
// other; see file-lock.ts).

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../core/config/path-policy.js';
import { lockNameFor } from '../../core/lock-names.js';

export interface LockPlace {
  /** The directory holding the lock. */
  dir: string;
  /** The locked file relative to `dir`. */
  rel: string;
  /** The lock file. */
  file: string;
  /** The lock files a place in each ancestor above `dir` (up to the floor) would have for the same file. */
  above: string[];
  /** For a place in an ancestor: the directory below `dir` toward the file, which must still be missing. */
  probe: string | undefined;
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

const join = (dir: string, rel: string) => (dir === '/' ? `/${rel}` : `${dir}/${rel}`);

/**
 * The place of the lock on the absolute, normalized path `real`. `floor` (the project root, which
 * exists) bounds the search for paths under it; other paths are searched up to `/`. With
 * `parentExists`, the parent is taken to exist without a look (the caller looks again with
 * `false` when creating the lock file there fails with ENOENT).
 */
export function lockPlace(real: string, floor?: string, parentExists = false): LockPlace {
  const top = floor !== undefined && real !== floor && isWithin(real, floor) ? floor : '/';
  let dir = path.posix.dirname(real);
  if (!parentExists) while (dir !== top && !isDir(dir)) dir = path.posix.dirname(dir);
  const rel = real === '/' ? '' : dir === '/' ? real.slice(1) : real.slice(dir.length + 1);
  const above: string[] = [];
  for (let a = dir; a !== top && a !== '/'; ) {
    const up = path.posix.dirname(a);
    above.push(join(up, lockNameFor(up === '/' ? real.slice(1) : real.slice(up.length + 1))));
    a = up;
  }
  const slash = rel.indexOf('/');
  return { dir, rel, file: join(dir, lockNameFor(rel)), above, probe: slash === -1 ? undefined : join(dir, rel.slice(0, slash)) };
}
