// Keeps the tree of a text an edit just wrote, so the next structural read of the file (fs_read by
// `symbol` or `line`) does not parse it again: agents read back the definition they edited. After a
// successful write of a file whose grammar is already loaded, and which this process has read by
// symbol or block before, the new text is parsed off the main thread (napi's parseAsync, on the
// thread pool) once the tool has replied, and the names read by symbol in that file are looked up
// on the new tree. Nothing here decides anything: a read checks the file on disk as always and
// finds the tree by its exact text (lang/parse/parse-cache.ts), waiting for this parse when it reads the
// text while the parse runs; a text replaced meanwhile is dropped.

import type { Lang } from '@ast-grep/napi';
import { cachedTree, keepTree, parseInFlight } from './parse-cache.js';
import { napi } from '../grammar/napi.js';
import { isAvailable, languageForPath } from '../grammar/registry.js';
import { findSymbolCached } from '../symbols/symbols.js';

/** Texts longer than this are left to be parsed when read (a parse of them is not cheap to waste). */
const MAX_WARM_CHARS = 1024 * 1024;
const MAX_PATHS = 64;
const MAX_NAMES = 8;

/** Paths read structurally, most recent last, with the names read by symbol in each. */
const interest = new Map<string, string[]>();
/** The text last written per path, so an older warm-up that finishes late keeps nothing. */
const latest = new Map<string, string>();

/** Notes a structural read of `real` (by `symbol` when `name` is given, else by block). */
export function noteStructuralRead(real: string, name?: string): void {
  const names = interest.get(real) ?? [];
  interest.delete(real);
  if (name !== undefined && !names.includes(name)) {
    names.push(name);
    if (names.length > MAX_NAMES) names.shift();
  }
  interest.set(real, names);
  if (interest.size > MAX_PATHS) interest.delete(interest.keys().next().value as string);
}

/** How many warm-ups ran to their end (tests count work, not time). */
export const warmStats = { parsed: 0 };

/**
 * After `text` was written to `real`: when the path was read structurally and its grammar is
 * loaded, parse `text` in the background (after the current turn of the event loop) and keep the
 * tree. Returns the promise of that work (resolved at once when there is none), for tests.
 */
export function warmAfterWrite(real: string, display: string, text: string): Promise<void> {
  const names = interest.get(real);
  const lang = languageForPath(display) ?? languageForPath(real);
  if (names === undefined || !lang || text.length > MAX_WARM_CHARS || !isAvailable(lang)) return Promise.resolve();
  latest.set(real, text);
  if (latest.size > MAX_PATHS) latest.delete(latest.keys().next().value as string);
  const work = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      if (latest.get(real) !== text) return;
      const root = cachedTree(lang, text) ?? keepTree(lang, text, await napi().parseAsync(lang.id as Lang, text));
      warmStats.parsed++;
      if (latest.get(real) !== text) return;
      for (const name of names) findSymbolCached(lang, root, name);
    })
    .catch(() => undefined)
    .finally(() => {
      if (latest.get(real) === text) latest.delete(real);
    });
  // a read of this text meanwhile waits for this parse (parse-cache.ts parseWhenReady)
  return parseInFlight(lang, text, work);
}
