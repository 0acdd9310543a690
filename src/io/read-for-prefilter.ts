// A cheaper read of a small file for a content prefilter (the symbol search reads every file of a
// tree only to learn whether the name's bytes occur in it): open without following a final link,
// fstat, read, close; the descriptor's real path is NOT checked here. The bytes may only be
// searched: a file whose bytes will be used (shown, parsed, hashed) must be read again with
// io/read-verified-sync.ts, which makes every check. What an unchecked read can leak is whether a
// file reached through a parent swapped for a link after the walk lacks a name; nothing of its
// content reaches a reply.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { statKey } from './read-verified-sync.js';

export interface PrefilterRead {
  bytes: Buffer;
  /** `size:mtimeMs:ino:dev` of what was read. */
  key: string;
}

/** The bytes of `real`, or null when it is missing, not a regular file, or larger than `maxBytes`. */
export function readForPrefilter(real: string, maxBytes: number): PrefilterRead | null {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return null;
    const bytes = Buffer.allocUnsafe(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, bytes, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: got === st.size ? bytes : bytes.subarray(0, got), key: statKey(st) };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
