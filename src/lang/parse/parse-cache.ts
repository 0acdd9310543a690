// Parsed trees kept warm for the texts parsed most recently, so a read that resolves a block and
// then a symbol (or an edit that resolves several blocks) parses a text once. Keyed by grammar and
// the exact text; a few entries only, least recently used dropped first. A parse started elsewhere
// (off the main thread, lang/parse/warm-after-write.ts) is registered while it runs, so a read of that same
// text waits for it (`parseWhenReady`) instead of parsing the text a second time beside it.

import type { SgRoot } from '@ast-grep/napi';
import { isAvailable, parseWith, type LanguageInfo } from '../grammar/registry.js';

const MAX_ENTRIES = 8;
const cache = new Map<string, Map<string, SgRoot>>();
let size = 0;
/** Parses made by parseCached (tests count work, not time). */
export const parseStats = { parsed: 0 };

/** Parses running elsewhere, by grammar and exact text: settled when the tree is kept (or the parse failed). */
const inFlight = new Map<string, Map<string, Promise<unknown>>>();

/** Registers `parse`, a parse of `text` running elsewhere that keeps its tree here when done; returns it. */
export function parseInFlight<T>(lang: LanguageInfo, text: string, parse: Promise<T>): Promise<T> {
  let byText = inFlight.get(lang.id);
  if (!byText) {
    byText = new Map();
    inFlight.set(lang.id, byText);
  }
  const mine = byText;
  mine.set(text, parse);
  const done = () => {
    if (mine.get(text) === parse) mine.delete(text);
  };
  parse.then(done, done);
  return parse;
}

/** The tree of `text`, waiting first for a parse of that exact text that is running elsewhere. */
export async function parseWhenReady(lang: LanguageInfo, text: string): Promise<SgRoot | null> {
  const running = cachedTree(lang, text) === undefined ? inFlight.get(lang.id)?.get(text) : undefined;
  if (running) await running.catch(() => undefined);
  return parseCached(lang, text);
}

/** The tree of `text` in `lang`, or null when the grammar is not available here. */
export function parseCached(lang: LanguageInfo, text: string): SgRoot | null {
  if (!isAvailable(lang)) return null;
  const hit = cachedTree(lang, text);
  if (hit) return hit;
  parseStats.parsed++;
  return keepTree(lang, text, parseWith(lang, text));
}

/** The tree of `text` when it is cached (made the most recently used), else undefined. */
export function cachedTree(lang: LanguageInfo, text: string): SgRoot | undefined {
  const byText = cache.get(lang.id);
  const hit = byText?.get(text);
  if (hit) {
    byText!.delete(text);
    byText!.set(text, hit);
  }
  return hit;
}

/** Keeps `root`, the tree of `text` parsed elsewhere (e.g. off the main thread), and returns it. */
export function keepTree(lang: LanguageInfo, text: string, root: SgRoot): SgRoot {
  let byText = cache.get(lang.id);
  if (byText?.has(text)) return cachedTree(lang, text)!;
  if (!byText) {
    byText = new Map();
    cache.set(lang.id, byText);
  }
  byText.set(text, root);
  size++;
  while (size > MAX_ENTRIES) {
    // drop the oldest entry of the largest bucket
    let victim: Map<string, SgRoot> | undefined;
    for (const m of cache.values()) if (!victim || m.size > victim.size) victim = m;
    const oldest = victim!.keys().next().value as string;
    victim!.delete(oldest);
    size--;
  }
  return root;
}
