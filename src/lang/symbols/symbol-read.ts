// The definition an fs_read `symbol` target shows in one file. From the whole tree of the text when
// it is kept (lang/parse/parse-cache.ts); else, right after an edit, from the whole tree of a text of the
// same file read before plus a parse of the one definition the edit changed, under the strict
// conditions of lang/symbols/symbol-region.ts; else from a whole
// parse, waiting for one of the same text that is already running (lang/parse/warm-after-write.ts). The
// background parse of an edited text still runs and serves later reads.

import type { SgRoot } from '@ast-grep/napi';
import { cachedTree, parseWhenReady } from '../parse/parse-cache.js';
import type { LanguageInfo } from '../grammar/registry.js';
import { regionLanguage, symbolFromRegion } from './symbol-region.js';
import { findSymbolCached, type SymbolMatch } from './symbols.js';
import { hasTreeFacts, treeFacts } from '../parse/tree-facts.js';

/** A text of a file read by symbol; `walked` once its whole tree's facts are known (tree-facts.ts). */
interface Earlier {
  text: string;
  walked: boolean;
}

/** Texts read by symbol per real path, newest last: the earlier texts a region re-parse may start from. */
const bases = new Map<string, Earlier[]>();
const MAX_PATHS = 32;
const MAX_TEXTS = 3;
/** Texts longer than this are not kept as earlier texts. */
const MAX_BASE_CHARS = 1024 * 1024;
/** Earlier texts tried per read (each try may walk a whole tree once). */
const MAX_TRIES = 2;

function noteText(real: string, text: string, tree: SgRoot | undefined): void {
  if (text.length > MAX_BASE_CHARS) return;
  const texts = bases.get(real) ?? [];
  bases.delete(real);
  const known = texts.find((t) => t.text === text);
  const entry = known ?? { text, walked: false };
  if (tree && hasTreeFacts(tree)) entry.walked = true;
  const kept = texts.filter((t) => t !== entry);
  kept.push(entry);
  // drop the oldest text whose tree was never walked first: a walked one serves the next edits of the same definition
  while (kept.length > MAX_TEXTS) {
    const unwalked = kept.findIndex((t) => !t.walked);
    kept.splice(unwalked >= 0 && unwalked < kept.length - 1 ? unwalked : 0, 1);
  }
  bases.set(real, kept);
  if (bases.size > MAX_PATHS) bases.delete(bases.keys().next().value as string);
}

/** The answer from an earlier text of `real` whose whole tree is kept, or undefined. */
function fromEarlierText(real: string, lang: LanguageInfo, text: string, name: string): SymbolMatch | undefined {
  const texts = bases.get(real);
  if (!texts || !regionLanguage(lang)) return undefined;
  const withTrees: Array<{ earlier: Earlier; tree: SgRoot }> = [];
  for (let i = texts.length - 1; i >= 0; i--) {
    const earlier = texts[i]!;
    const tree = earlier.text === text ? undefined : cachedTree(lang, earlier.text);
    if (tree) withTrees.push({ earlier, tree });
  }
  // trees already walked first (newest first among them), then the newest other
  withTrees.sort((a, b) => Number(hasTreeFacts(b.tree)) - Number(hasTreeFacts(a.tree)));
  for (const { earlier, tree } of withTrees.slice(0, MAX_TRIES)) {
    const match = symbolFromRegion(lang, earlier.text, tree, text, name);
    earlier.walked = hasTreeFacts(tree);
    if (match) return match;
  }
  return undefined;
}

/**
 * When no earlier text of `real` has a walked tree still kept, walks the tree of `text` (the text
 * just read) for the region re-parse's facts once the current turn is over: one walk serves every
 * later edit of the same definition, so a file read again and again is not walked each time.
 */
function factsLater(real: string, lang: LanguageInfo, text: string, tree: SgRoot): void {
  if (!regionLanguage(lang) || hasTreeFacts(tree)) return;
  const texts = bases.get(real) ?? [];
  for (const t of texts) if (t.walked && t.text !== text && !cachedTree(lang, t.text)) t.walked = false;
  if (texts.some((t) => t.walked && t.text !== text)) return;
  setImmediate(() => {
    treeFacts(tree);
    const entry = bases.get(real)?.find((t) => t.text === text);
    if (entry) entry.walked = true;
  });
}

/** The definition named `name` in `text`, the text of file `real` as read now; null when there is none. */
export async function symbolForRead(real: string, lang: LanguageInfo, text: string, name: string): Promise<SymbolMatch | null> {
  let tree = cachedTree(lang, text);
  if (!tree) {
    const quick = fromEarlierText(real, lang, text, name);
    noteText(real, text, undefined);
    if (quick) return quick;
    // right after an edit, the new text may be parsing off the main thread: wait for that tree
    tree = (await parseWhenReady(lang, text)) ?? undefined;
  }
  if (!tree) return null;
  noteText(real, text, tree);
  factsLater(real, lang, text, tree);
  return findSymbolCached(lang, tree, name);
}
