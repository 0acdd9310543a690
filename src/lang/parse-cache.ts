// Parsed trees kept warm for the texts parsed most recently, so a read that resolves a block and
// then a symbol (or an edit that resolves several blocks) parses a text once. Keyed by grammar and
// the exact text; a few entries only, least recently used dropped first.

import type { SgRoot } from '@ast-grep/napi';
import { isAvailable, parseWith, type LanguageInfo } from './registry.js';

const MAX_ENTRIES = 8;
const cache = new Map<string, Map<string, SgRoot>>();
let size = 0;

/** The tree of `text` in `lang`, or null when the grammar is not available here. */
export function parseCached(lang: LanguageInfo, text: string): SgRoot | null {
  if (!isAvailable(lang)) return null;
  let byText = cache.get(lang.id);
  const hit = byText?.get(text);
  if (hit) {
    byText!.delete(text);
    byText!.set(text, hit);
    return hit;
  }
  const root = parseWith(lang, text);
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
