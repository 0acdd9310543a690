// A cheaper read of a small file for a content prefilter (the symbol search reads every file of a
// tree only to learn whether the name's bytes occur in it): open without following a final link,
// fstat, read, close; the descriptor's real path is NOT checked here. The bytes may only be
// searched: a file whose bytes will be used (shown, parsed, hashed) must be read again with
// io/read/read-verified-sync.ts, which makes every check. What an unchecked read can leak is whether a
// file reached through a parent swapped for a link after the walk lacks a name; nothing of its
// content reaches a reply.

import { quietReadSync, type SyncRead } from './read-verified-sync.js';

/** The bytes of `real`, or null when it is missing, not a regular file, or larger than `maxBytes`. */
export function readForPrefilter(real: string, maxBytes: number): SyncRead | null {
  return quietReadSync(real, maxBytes);
}
