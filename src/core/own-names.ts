// hashline's own names in the tree, and the one predicate that hides them. Beside a file it
// changes, hashline keeps a temporary file being written (`.<name>.hashline-tmp-<id>`), the old
// bytes of a batch step until the batch ends (`.<name>.hashline-bak-<hex>`) and a lock
// (core/lock-names.ts). Such a name holds the bytes of the file it stages (a read-blocked `.env`
// included), so no tool or route ever reads, writes or lists it: `isOwnName` is asked by the
// guard's `decide` for every path, and walks, listings and archives go through the guard.

import { isLockName, LOCK_SUFFIX } from './lock-names.js';

/** Marks a temporary file written beside its target, then renamed over it. */
export const TEMP_MARKER = '.hashline-tmp-';
/** Marks the old bytes of a file a batch replaced or removed, kept until the batch ends. */
export const BACKUP_MARKER = '.hashline-bak-';

/** The temporary file's name for the file named `base` (no `/`), `suffix` making it unique. */
export function tempName(base: string, suffix: string): string {
  return `.${base}${TEMP_MARKER}${suffix}`;
}

/** The backup's name for the file named `base` (no `/`), `suffix` making it unique. */
export function backupName(base: string, suffix: string): string {
  return `.${base}${BACKUP_MARKER}${suffix}`;
}

const STAGING = /^\..+\.hashline-(?:tmp|bak)-/s;

/** True when one path component names a temporary or backup file of hashline's. */
export function isStagingName(name: string): boolean {
  return STAGING.test(name);
}

/** True when one path component is any of hashline's own names: staging, backup or lock. */
export function isOwnName(name: string): boolean {
  return isStagingName(name) || (name.includes(LOCK_SUFFIX) && isLockName(name));
}

/** True when any component of `p` is one of hashline's own names: such a path is never shown or opened by a tool. */
export function pathHasOwnName(p: string): boolean {
  if (!p.includes('.hashline')) return false;
  for (const part of p.split('/')) if (part.includes('.hashline') && isOwnName(part)) return true;
  return false;
}
