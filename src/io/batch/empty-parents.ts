// After a delete: the parent directories the deletion left empty are removed, innermost first,
// up to (never including) the root, and only those the write policy admits. A directory that is
// not empty (or that someone filled meanwhile) stops the climb; rmdir never removes anything else.

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../core/config/path-policy.js';
import { closeQuietly, openAnchoredDir } from '../atomic-write.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

/** Removes the empty authorized ancestors of the deleted `rp`; returns them (display form, innermost first). */
export async function removeEmptyParents(guard: PathGuard, rp: ResolvedPath): Promise<string[]> {
  const removed: string[] = [];
  for (let dir = path.dirname(rp.real); dir !== guard.realRoot && isWithin(dir, guard.realRoot); dir = path.dirname(dir)) {
    if (!guard.admitsReal(dir, 'write')) break;
    try {
      // named inside its parent opened and verified, so a parent swapped for a link removes nothing elsewhere
      const parent = openAnchoredDir(guard, path.dirname(dir), guard.display(dir), dir);
      try {
        await fsp.rmdir(`${parent.prefix}/${path.basename(dir)}`);
      } finally {
        closeQuietly(parent.fd);
      }
    } catch {
      break; // not empty, gone, not a directory, or refused: the climb ends here
    }
    removed.push(guard.display(dir));
  }
  return removed;
}
