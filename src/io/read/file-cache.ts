// The bytes of small files, kept warm between tree-wide searches (symbol lookups, content search,
// references). An entry is checked against the file's size, mtime, inode and device (one lstat)
// before every use. Fresh entries come from the prefilter read (io/read/read-for-prefilter.ts: no
// descriptor check), whose bytes may only be searched; `verifiedEntry` replaces one with a read
// that makes every check (io/read/read-verified-sync.ts) before anything of the file is shown or
// parsed. Each entry has a memo for what callers derive from its bytes (decoded text, answers).

import { lstatSync } from 'node:fs';
import { docTag, parseDocAndText } from '../../core/text/text-doc.js';
import type { PathGuard } from '../guard/path-guard.js';
import { readForPrefilter } from './read-for-prefilter.js';
import { readVerifiedSync, statKey } from './read-verified-sync.js';

/** Files larger than this are not cached (nor searched through the cache). */
export const MAX_CACHED_FILE_BYTES = 2 * 1024 * 1024;
/** Cached bytes are dropped, least recently used first, past this total. */
const MAX_CACHED_BYTES = 128 * 1024 * 1024;

export interface DecodedFile {
  /** LF, BOM-less text. */
  readonly text: string;
  readonly tag: string;
  readonly utf8: boolean;
}

export interface CachedFile {
  readonly key: string;
  readonly bytes: Buffer;
  /** Read with every check (io/read/read-verified-sync.ts); else only fit for searching its bytes. */
  readonly verified: boolean;
  decoded?: DecodedFile;
  /** What callers derived from these bytes, by a key of their own. */
  readonly memo: Map<string, unknown>;
}

const cache = new Map<string, CachedFile>();
let cachedBytes = 0;

function remember(real: string, entry: CachedFile): void {
  forgetFile(real);
  cache.set(real, entry);
  cachedBytes += entry.bytes.length;
  while (cachedBytes > MAX_CACHED_BYTES && cache.size > 0) forgetFile(cache.keys().next().value as string);
}

/** Drops what is known about a file (called after a write). */
export function forgetFile(real: string): void {
  const old = cache.get(real);
  if (old) {
    cachedBytes -= old.bytes.length;
    cache.delete(real);
  }
}

/** The LF text, tag and encoding of an entry's bytes (computed once). */
export function decodeEntry(entry: CachedFile): DecodedFile {
  if (!entry.decoded) {
    const { doc, text } = parseDocAndText(entry.bytes);
    entry.decoded = { text, tag: docTag(doc, entry.bytes), utf8: doc.utf8 };
  }
  return entry.decoded;
}

/**
 * The cached entry for a file when still valid, else a fresh prefilter read (null: missing, not a
 * regular file, or over MAX_CACHED_FILE_BYTES).
 */
export function entryFor(real: string): CachedFile | null {
  const hit = cache.get(real);
  if (hit) {
    try {
      if (statKey(lstatSync(real)) === hit.key) return hit;
    } catch {
      forgetFile(real);
      return null;
    }
  }
  const read = readForPrefilter(real, MAX_CACHED_FILE_BYTES);
  if (!read) return null;
  const entry: CachedFile = { key: read.key, bytes: read.bytes, verified: false, memo: new Map() };
  remember(real, entry);
  return entry;
}

/** The entry itself when verified, else a verified read that replaces it (null: gone or no longer cacheable). */
export function verifiedEntry(guard: PathGuard, real: string, entry: CachedFile): CachedFile | null {
  if (entry.verified) return entry;
  const read = readVerifiedSync(guard, real, guard.display(real), MAX_CACHED_FILE_BYTES);
  if (!read) {
    forgetFile(real);
    return null;
  }
  const fresh: CachedFile = { key: read.key, bytes: read.bytes, verified: true, memo: new Map() };
  remember(real, fresh);
  return fresh;
}
