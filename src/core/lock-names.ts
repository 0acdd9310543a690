// The names of hashline's lock files, which live beside the files they lock. A lock is a property
// of the file, not of a process's private folder: every process of any user, and containers that
// share the tree, name the same lock for the same file. The lock of `dir/name` is
// `dir/.name.hashline.lock`; a lock kept in a farther ancestor (the parent does not exist yet) or
// for a name too long to carry a suffix is `.<24 hex of SHA-256 of the path below that
// directory>.hashline.lock`. Names derive from the path relative to the directory holding the lock,
// never from an absolute path, so two mount namespaces that see the tree at different places agree.
//
// Every name of the family (locks, `<lock>.<id>.new` files being linked into place, takeover guards
// `<lock>.takeover.<id>...`) is hidden: the guard refuses it, walks and listings leave it out.

import { createHash } from 'node:crypto';

export const LOCK_SUFFIX = '.hashline.lock';
/** Names longer than this (bytes) are locked under a hashed name: the family's longest name must fit NAME_MAX (255). */
export const MAX_PLAIN_LOCK_NAME = 100;

/** A lock-family name: `.` + anything + `.hashline.lock`, optionally followed by `.` + anything. */
const FAMILY = /^\..+\.hashline\.lock(?:\..*)?$/s;

/** True when one path component names a hashline lock file (or its staging file or takeover guard). */
export function isLockName(name: string): boolean {
  return FAMILY.test(name);
}

/** True when any component of `p` names a lock file: such a path is never shown or opened by a tool. */
export function pathHasLockName(p: string): boolean {
  if (!p.includes(LOCK_SUFFIX)) return false;
  for (const part of p.split('/')) if (part.includes(LOCK_SUFFIX) && isLockName(part)) return true;
  return false;
}

/**
 * The name of the lock, kept in a directory D, of the file at `rel` below D (`/`-separated, no
 * `.` or `..` parts). Plain (`.name.hashline.lock`) when `rel` is one short name, hashed otherwise.
 */
export function lockNameFor(rel: string): string {
  if (!rel.includes('/') && Buffer.byteLength(rel) <= MAX_PLAIN_LOCK_NAME) return `.${rel}${LOCK_SUFFIX}`;
  return `.${createHash('sha256').update(rel).digest('hex').slice(0, 24)}${LOCK_SUFFIX}`;
}

/** True when `rel` is a plain relative path below a directory: no empty, `.` or `..` part, not absolute. */
export function isPlainRel(rel: string): boolean {
  if (rel === '' || rel.startsWith('/')) return false;
  return rel.split('/').every((p) => p !== '' && p !== '.' && p !== '..');
}
