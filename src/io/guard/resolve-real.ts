// Resolves the symbolic links along an absolute path the way the path guard needs it: component
// by component with lstat/readlink, following dangling links lexically (so a new file under a link
// to outside is caught), stopping at the first missing component, and bounding both link hops and
// links that change under the walk.

import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../../core/errors/errors.js';
import { linkSwapped, tooManyLinks } from '../../core/messages/guard.js';
import { isWithin, normalizeLexical } from '../../core/config/path-policy.js';

const MAX_LINK_HOPS = 40;
/** Times one path's walk looks again at a link that changed between its lstat and its readlink. */
const MAX_LINK_RACES = 8;

/** The target of the link `at`, or null when `at` stopped being a link since it was lstat'ed. */
function readlinkOrNull(at: string): string | null {
  try {
    return readlinkSync(at);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EINVAL' || code === 'ENOTDIR') return null;
    throw e;
  }
}

// Resolution uses synchronous lstat/readlink: each is a few microseconds, and a path costs one
// per component; a thread-pool round trip per component costs far more under load. What is
// finally opened is verified again through its descriptor.
/** lstat, or null when the path (or a parent) is missing. */
export function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

/**
 * Resolves every symbolic link along `abs`, following dangling links lexically, and stops
 * resolving at the first missing component (the rest is appended as is). `links` is how many
 * links were followed (0: `abs` below the known prefix holds none, its last component included).
 */
export function resolveRealSync(abs: string, known?: { lexical: string; real: string }): { real: string; exists: boolean; links: number } {
  let pending = abs.split('/').filter((p) => p !== '');
  let done = '/';
  if (known && known.lexical !== '/' && isWithin(abs, known.lexical)) {
    // The root was resolved once at start: begin below it.
    pending = abs.slice(known.lexical.length).split('/').filter((p) => p !== '');
    done = known.real;
  }
  let hops = 0;
  let races = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done = path.posix.dirname(done);
      continue;
    }
    const next = done === '/' ? `/${part}` : `${done}/${part}`;
    const st = lstatOrNull(next);
    if (st === null) {
      const rest = [part, ...pending];
      // A missing component: nothing below it can be a link, but `..` may still climb out of it.
      return { real: normalizeLexical(rest.join('/'), done), exists: false, links: hops };
    }
    if (st.isSymbolicLink()) {
      const target = readlinkOrNull(next);
      if (target === null) {
        // removed or replaced between the lstat and the readlink: look at the component again
        if (++races > MAX_LINK_RACES) throw new HashlineError('link_swapped', linkSwapped(abs));
        pending.unshift(part);
        continue;
      }
      if (++hops > MAX_LINK_HOPS) {
        throw new HashlineError('symlink_escape', tooManyLinks(abs));
      }
      // Components of the target are resolved one by one, so `..` climbs real directories.
      if (path.posix.isAbsolute(target)) done = '/';
      pending = [...target.split('/').filter((p) => p !== ''), ...pending];
      continue;
    }
    done = next;
  }
  return { real: done, exists: true, links: hops };
}

/** `resolveRealSync` for callers that await (the walk is synchronous: see above). */
export async function resolveReal(abs: string, known?: { lexical: string; real: string }): Promise<{ real: string; exists: boolean }> {
  const { real, exists } = resolveRealSync(abs, known);
  return { real, exists };
}

/**
 * Each path of a guard list as given and with its links resolved (a policy entry must match both);
 * with `lenient`, one that cannot be resolved (EACCES on the way) stays as given.
 */
export async function realForms(list: readonly string[] | undefined, lenient = false): Promise<string[] | undefined> {
  if (list === undefined) return undefined;
  const out = new Set<string>();
  for (const p of list) {
    out.add(p);
    try {
      out.add((await resolveReal(p)).real);
    } catch (e) {
      if (!lenient) throw e;
    }
  }
  return [...out];
}
