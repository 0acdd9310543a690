// Symbol search over a directory tree (fs_read with a directory `path` and a `symbol`): lists the
// tree (io/tree-index.ts: no links, .git and node_modules skipped, .gitignore honoured, policy per
// file), keeps files whose grammar knows definitions, skips every file whose bytes do not contain
// the name (a read without the descriptor check; the files that match are read again with every
// check), and parses the rest on libuv's threads. Files are read in short synchronous slices
// (the event loop is released between slices); their bytes and per-name answers stay warm between
// calls, checked against size, mtime, inode and device before every use.

import { lstatSync } from 'node:fs';
import type { Lang } from '@ast-grep/napi';
import { napi } from './napi.js';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { docTag, parseDocAndText } from '../core/text-doc.js';
import type { PathGuard } from '../io/path-guard.js';
import { readForPrefilter } from '../io/read-for-prefilter.js';
import { readVerifiedSync, statKey } from '../io/read-verified-sync.js';
import { listTree } from '../io/tree-index.js';
import { isAvailable, languageForPath, type LanguageInfo } from './registry.js';
import { findSymbol, hasDefinitions, type SymbolMatch } from './symbols.js';

/** Files larger than this are not searched (nor cached). */
export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;
/** Cached bytes are dropped, least recently used first, past this total. */
const MAX_CACHED_BYTES = 128 * 1024 * 1024;
/** Candidate files parsed at once. */
const PARSE_BATCH = 16;
/** The event loop is released after this long of synchronous work. */
const SLICE_MS = 8;

export interface DecodedFile {
  /** LF, BOM-less text. */
  readonly text: string;
  readonly tag: string;
  readonly utf8: boolean;
}

interface Entry {
  readonly key: string;
  readonly bytes: Buffer;
  /** Read with every check (io/read-verified-sync.ts); else only fit for the needle test. */
  readonly verified: boolean;
  decoded?: DecodedFile;
  /** Symbol name → match (null: checked, none). */
  readonly matches: Map<string, SymbolMatch | null>;
}

const cache = new Map<string, Entry>();
let cachedBytes = 0;

function remember(real: string, entry: Entry): void {
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

function decode(entry: Entry): DecodedFile {
  if (!entry.decoded) {
    const { doc, text } = parseDocAndText(entry.bytes);
    entry.decoded = { text, tag: docTag(doc, entry.bytes), utf8: doc.utf8 };
  }
  return entry.decoded;
}

/**
 * The cached entry for a file when still valid, else a fresh read (null: not a searchable file).
 * Fresh reads skip the descriptor check (io/read-for-prefilter.ts): most files only have their
 * bytes searched for the name, and `verifiedEntry` reads again, with every check, those that match.
 */
function entryFor(real: string): Entry | null {
  const hit = cache.get(real);
  if (hit) {
    try {
      if (statKey(lstatSync(real)) === hit.key) return hit;
    } catch {
      forgetFile(real);
      return null;
    }
  }
  const read = readForPrefilter(real, MAX_SEARCH_FILE_BYTES);
  if (!read) return null;
  const entry: Entry = { key: read.key, bytes: read.bytes, verified: false, matches: new Map() };
  remember(real, entry);
  return entry;
}

/** The entry itself when verified, else a verified read that replaces it (null: gone or no longer searchable). */
function verifiedEntry(guard: PathGuard, real: string, entry: Entry): Entry | null {
  if (entry.verified) return entry;
  const read = readVerifiedSync(guard, real, guard.display(real), MAX_SEARCH_FILE_BYTES);
  if (!read) {
    forgetFile(real);
    return null;
  }
  const fresh: Entry = { key: read.key, bytes: read.bytes, verified: true, matches: new Map() };
  remember(real, fresh);
  return fresh;
}

export interface SymbolHit {
  real: string;
  display: string;
  file: DecodedFile;
  match: SymbolMatch;
}

export interface SearchProblem {
  display: string;
  message: string;
}

const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

/**
 * The files under `dirReal` that define `name`, in walk order; with `limit`, the search may stop
 * once that many files matched, leaving other candidates unparsed (the caller says the list was cut).
 */
export async function searchSymbol(
  guard: PathGuard,
  dirReal: string,
  name: string,
  options: { signal?: AbortSignal | undefined; limit?: number } = {},
): Promise<{ hits: SymbolHit[]; problems: SearchProblem[] }> {
  const needle = Buffer.from(name, 'utf8');
  const pending: Array<{ i: number; lang: LanguageInfo; entry: Entry }> = [];
  const files = listTree(guard, dirReal);
  const results: Array<SymbolHit | SearchProblem | null> = new Array(files.length).fill(null);
  const langs = new Map<string, LanguageInfo | null>();
  let sliceStart = performance.now();
  for (let i = 0; i < files.length; i++) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldLoop();
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      sliceStart = performance.now();
    }
    const real = files[i]!;
    const dot = real.lastIndexOf('.');
    const ext = dot > real.lastIndexOf('/') ? real.slice(dot).toLowerCase() : '';
    let lang = langs.get(ext);
    if (lang === undefined) {
      const l = languageForPath(real);
      lang = l && isAvailable(l) && hasDefinitions(l) ? l : null;
      langs.set(ext, lang);
    }
    if (!lang || name === '') continue;
    try {
      let entry = entryFor(real);
      if (!entry) continue;
      const known = entry.matches.get(name);
      if (known !== undefined) {
        if (known) results[i] = { real, display: guard.display(real), file: decode(entry), match: known };
        continue;
      }
      if (entry.bytes.indexOf(needle) < 0) {
        entry.matches.set(name, null);
        continue;
      }
      entry = verifiedEntry(guard, real, entry);
      if (!entry || entry.bytes.indexOf(needle) < 0) continue;
      pending.push({ i, lang, entry });
    } catch (e) {
      results[i] = { display: guard.display(real), message: toHashlineError(e).message };
    }
  }
  // parse the candidates a few at a time in walk order (ast-grep parses off the main thread), and
  // stop once `limit` files matched
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let found = results.filter((r) => r !== null && 'match' in r).length;
  for (let at = 0; at < pending.length && found < limit; at += PARSE_BATCH) {
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    await Promise.all(pending.slice(at, at + PARSE_BATCH).map(async ({ i, lang, entry }) => {
      const real = files[i]!;
      const display = guard.display(real);
      try {
        const file = decode(entry);
        const match = findSymbol(lang, await napi().parseAsync(lang.id as Lang, file.text), name);
        entry.matches.set(name, match);
        if (match) {
          results[i] = { real, display, file, match };
          found++;
        }
      } catch (e) {
        results[i] = { display, message: toHashlineError(e).message };
      }
    }));
  }
  const hits: SymbolHit[] = [];
  const problems: SearchProblem[] = [];
  for (const r of results) {
    if (r === null) continue;
    if ('match' in r) hits.push(r);
    else problems.push(r);
  }
  return { hits, problems };
}
