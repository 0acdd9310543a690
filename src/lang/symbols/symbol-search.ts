// Symbol search over a directory tree (fs_read with a directory `path` and a `symbol`): lists the
// tree (io/tree/tree-index.ts: no links, .git and node_modules skipped, .gitignore honoured, policy per
// file), keeps files whose grammar knows definitions, skips every file whose bytes do not contain
// the name (a read without the descriptor check; the files that match are read again with every
// check), and parses the rest on libuv's threads. Files are read in short synchronous slices
// (the event loop is released between slices); their bytes and per-name answers stay warm between
// calls, checked against size, mtime, inode and device before every use.

import type { Lang } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { decodeEntry, entryFor, MAX_CACHED_FILE_BYTES, verifiedEntry, type CachedFile, type DecodedFile } from '../../io/read/file-cache.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import { listTree } from '../../io/tree/tree-index.js';
import { isAvailable, languageForPath, type LanguageInfo } from '../grammar/registry.js';
import { findSymbol, hasDefinitions, type SymbolMatch } from './symbols.js';

export { forgetFile, type DecodedFile } from '../../io/read/file-cache.js';

/** Files larger than this are not searched (nor cached). */
export const MAX_SEARCH_FILE_BYTES = MAX_CACHED_FILE_BYTES;
/** Candidate files parsed at once. */
const PARSE_BATCH = 16;
/** The event loop is released after this long of synchronous work. */
const SLICE_MS = 8;

type Entry = CachedFile;
const decode = decodeEntry;

/** Symbol name → match (null: checked, none), kept in the entry's memo. */
function matchesOf(entry: Entry): Map<string, SymbolMatch | null> {
  let m = entry.memo.get('symbols') as Map<string, SymbolMatch | null> | undefined;
  if (!m) {
    m = new Map();
    entry.memo.set('symbols', m);
  }
  return m;
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
      const known = matchesOf(entry).get(name);
      if (known !== undefined) {
        if (known) results[i] = { real, display: guard.display(real), file: decode(entry), match: known };
        continue;
      }
      if (entry.bytes.indexOf(needle) < 0) {
        matchesOf(entry).set(name, null);
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
        matchesOf(entry).set(name, match);
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
