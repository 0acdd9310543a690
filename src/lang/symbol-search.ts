// Symbol search over a directory tree (fs_read with a directory `path` and a `symbol`): walks the
// tree (no links, .git and node_modules skipped, .gitignore honoured, policy per file), keeps
// files with a grammar that knows definitions, skips every file whose text does not contain the
// name, and parses the rest in parallel on libuv's threads. What was read stays warm between
// calls, keyed by real path and checked against size, mtime and inode before every use.

import { promises as fsp } from 'node:fs';
import os from 'node:os';
import { parseAsync, type Lang } from '@ast-grep/napi';
import { HashlineError } from '../core/errors.js';
import { loadLines } from '../io/read-lines.js';
import type { PathGuard, ResolvedPath } from '../io/path-guard.js';
import { walkFiles } from '../io/walk.js';
import { ensureDynamicLanguages, isAvailable, languageForPath, type LanguageInfo } from './registry.js';
import { findSymbol, hasDefinitions, type SymbolMatch } from './symbols.js';

/** Files larger than this are not searched (nor cached). */
export const MAX_SEARCH_FILE_BYTES = 2 * 1024 * 1024;
/** Cached texts are dropped, oldest first, past this many UTF-16 units in all. */
const MAX_CACHED_UNITS = 256 * 1024 * 1024;
const CONCURRENCY = Math.max(4, Math.min(16, os.availableParallelism?.() ?? 4));

export interface CachedFile {
  readonly key: string;
  /** LF, BOM-less text. */
  readonly text: string;
  readonly tag: string;
  readonly utf8: boolean;
  /** Line count as `file_lines` gives it. */
  readonly total: number;
  /** Symbol name → match (null: checked, none). */
  readonly matches: Map<string, SymbolMatch | null>;
}

const cache = new Map<string, CachedFile>();
let cachedUnits = 0;

function remember(real: string, entry: CachedFile): void {
  const old = cache.get(real);
  if (old) cachedUnits -= old.text.length;
  cache.delete(real);
  cache.set(real, entry);
  cachedUnits += entry.text.length;
  while (cachedUnits > MAX_CACHED_UNITS && cache.size > 0) {
    const [k, v] = cache.entries().next().value as [string, CachedFile];
    cache.delete(k);
    cachedUnits -= v.text.length;
  }
}

/** Drops what is known about a file (called after a write). */
export function forgetFile(real: string): void {
  const old = cache.get(real);
  if (old) {
    cachedUnits -= old.text.length;
    cache.delete(real);
  }
}

export interface SymbolHit {
  real: string;
  display: string;
  file: CachedFile;
  match: SymbolMatch;
}

export interface SearchProblem {
  display: string;
  message: string;
}

async function fileEntry(guard: PathGuard, real: string, display: string, signal?: AbortSignal): Promise<CachedFile | null> {
  const st = await fsp.lstat(real);
  if (!st.isFile() || st.size > MAX_SEARCH_FILE_BYTES) return null;
  const key = `${st.size}:${st.mtimeMs}:${st.ino}:${st.dev}`;
  const hit = cache.get(real);
  if (hit && hit.key === key) return hit;
  const rp: ResolvedPath = { input: display, display, lexical: real, real, exists: true, viaLink: false };
  const loaded = await loadLines(guard, rp, { keepTextUpTo: Number.POSITIVE_INFINITY, want: () => false, signal });
  const entry: CachedFile = { key, text: loaded.text ?? '', tag: loaded.tag, utf8: loaded.utf8, total: loaded.total, matches: new Map() };
  remember(real, entry);
  return entry;
}

async function matchIn(lang: LanguageInfo, entry: CachedFile, name: string): Promise<SymbolMatch | null> {
  if (entry.matches.has(name)) return entry.matches.get(name)!;
  let match: SymbolMatch | null = null;
  if (entry.text.includes(name)) {
    const root = await parseAsync(lang.id as Lang, entry.text);
    match = findSymbol(lang, root, name);
  }
  entry.matches.set(name, match);
  return match;
}

/** Every file under `dirReal` that defines `name`, in walk order. */
export async function searchSymbol(
  guard: PathGuard,
  dirReal: string,
  name: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<{ hits: SymbolHit[]; problems: SearchProblem[] }> {
  ensureDynamicLanguages();
  const files: Array<{ real: string; display: string; lang: LanguageInfo }> = [];
  for await (const f of walkFiles(guard, dirReal, {
    scope: 'read',
    signal: options.signal,
    accept: (real) => {
      const lang = languageForPath(real);
      return lang !== undefined && isAvailable(lang) && hasDefinitions(lang);
    },
  })) {
    files.push({ ...f, lang: languageForPath(f.real)! });
  }
  const results: Array<SymbolHit | SearchProblem | null> = new Array(files.length).fill(null);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < files.length; i = next++) {
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
      const f = files[i]!;
      try {
        const entry = await fileEntry(guard, f.real, f.display, options.signal);
        if (!entry) continue;
        const match = await matchIn(f.lang, entry, name);
        if (match) results[i] = { real: f.real, display: f.display, file: entry, match };
      } catch (e) {
        const err = e as { code?: string; message?: string };
        if (err.code === 'aborted') throw e;
        if (err.code === 'ENOENT') continue; // gone since the walk
        results[i] = { display: f.display, message: err.message ?? String(e) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  const hits: SymbolHit[] = [];
  const problems: SearchProblem[] = [];
  for (const r of results) {
    if (r === null) continue;
    if ('match' in r) hits.push(r);
    else problems.push(r);
  }
  return { hits, problems };
}
