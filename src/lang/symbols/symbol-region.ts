// A symbol read of a text whose whole tree is not parsed yet, answered from the whole tree of an
// earlier text of the same file and a parse of the one definition that changed. napi has no
// incremental re-parse and a whole parse of a 2,000-line file costs tens of milliseconds; an edit
// of one function changes a few hundred characters. The answer is given only when it is the one a
// whole parse of the new text gives (test/lang/symbols/symbol-region.test.ts checks this against whole
// parses of real files and random edits); on any doubt it is undefined and the caller parses the
// whole text. All of these must hold:
// - the grammar is TypeScript, Tsx or JavaScript, and the earlier tree is clean (no ERROR, no
//   MISSING token);
// - the two texts differ only inside one top-level node N of the earlier tree, a function, generator
//   or class declaration or `export` of one (no `default`, no decorator): the change starts after
//   N's first word and the character after it, and ends before N's closing `}`;
// - the top-level node before N, skipping comments, ends in `;` or `}`, and the one after N starts
//   with a word that cannot continue an expression (so neither edge can join N to a neighbour);
// - N's new text, parsed alone, is clean and is exactly one node of N's kind (and the same inner
//   declaration kind under `export`) spanning it all, with the same name;
// - the earlier tree has no definition of the name outside N (so the answer is the first match
//   inside N's new text, as it would be in the whole new tree).
// The answer is then N's new text's own match moved down by N's row.

import type { SgNode, SgRoot } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import type { LanguageInfo } from '../grammar/registry.js';
import { findSymbol, type SymbolMatch } from './symbols.js';
import { isClean, namedDefinitionSpansCached, treeFacts, type TopNode } from '../parse/tree-facts.js';

/** Work done here (tests count work, not time). */
export const regionStats = { fragments: 0, answered: 0 };

const LANGS = new Set(['TypeScript', 'Tsx', 'JavaScript']);
const DECLARATIONS = new Set(['function_declaration', 'generator_function_declaration', 'class_declaration', 'abstract_class_declaration']);
/** Words that can continue an expression across a line break (`f() {} instanceof X`). */
const CONTINUING = new Set(['in', 'instanceof', 'as', 'satisfies', 'of']);
/** A definition longer than this is left to the whole parse. */
const MAX_FRAGMENT_CHARS = 256 * 1024;

/** True when symbol reads in this language may be answered from a region re-parse. */
export function regionLanguage(lang: LanguageInfo): boolean {
  return LANGS.has(lang.id);
}

/** Characters compared at once (natively, as strings) before the search goes character by character. */
const CHUNK = 1024;

/** The span of `before` that differs from `after`: common prefix `start`, then the ends in each text. */
export function changedSpan(before: string, after: string): { start: number; beforeEnd: number; afterEnd: number } {
  const min = Math.min(before.length, after.length);
  let start = 0;
  while (start + CHUNK <= min && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK)) start += CHUNK;
  while (start < min && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  const room = min - start;
  let tail = 0;
  while (tail + CHUNK <= room && before.slice(before.length - tail - CHUNK, before.length - tail) === after.slice(after.length - tail - CHUNK, after.length - tail)) tail += CHUNK;
  while (tail < room && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start, beforeEnd: before.length - tail, afterEnd: after.length - tail };
}

/** The index of the last top-level node starting at or before `at`, or -1. */
function topAt(tops: readonly TopNode[], at: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid]!.start <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const kindOf = (n: SgNode): string => String(n.kind());

/** The declaration N stands for: itself, or the one declaration of a plain `export` (else null). */
function declarationOf(node: SgNode): SgNode | null {
  const kind = kindOf(node);
  if (DECLARATIONS.has(kind)) return node;
  if (kind !== 'export_statement') return null;
  const children = node.children();
  if (children.length !== 2 || kindOf(children[0]!) !== 'export' || !DECLARATIONS.has(kindOf(children[1]!))) return null;
  return children[1]!;
}

const nameOf = (decl: SgNode): string | null => (decl.field('name' as never) as SgNode | null)?.text() ?? null;

/** The neighbours of tops[i] (comments skipped) leave no way for the edges of N to join them. */
function edgesClosed(text: string, tops: readonly TopNode[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    if (tops[j]!.kind === 'comment') continue;
    const last = text.charCodeAt(tops[j]!.end - 1);
    if (last !== 0x3b /* ; */ && last !== 0x7d /* } */) return false;
    break;
  }
  for (let j = i + 1; j < tops.length; j++) {
    if (tops[j]!.kind === 'comment') continue;
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(tops[j]!.start, tops[j]!.start + 32))?.[0];
    return word !== undefined && !CONTINUING.has(word);
  }
  return true;
}

/**
 * The match `findSymbol(lang, parse(after), name)` would give, from `tree`, the clean whole tree of
 * `before`, and a parse of the one changed definition; undefined whenever that cannot be shown.
 */
export function symbolFromRegion(lang: LanguageInfo, before: string, tree: SgRoot, after: string, name: string): SymbolMatch | undefined {
  if (!regionLanguage(lang) || before === after || name === '') return undefined;
  try {
    return fromRegion(lang, before, tree, after, name);
  } catch {
    return undefined;
  }
}

function fromRegion(lang: LanguageInfo, before: string, tree: SgRoot, after: string, name: string): SymbolMatch | undefined {
  const facts = treeFacts(tree);
  if (!facts.clean) return undefined;
  const span = changedSpan(before, after);
  const i = topAt(facts.tops, span.start);
  if (i < 0) return undefined;
  const top = facts.tops[i]!;
  const lead = /^[A-Za-z][\w$]*/.exec(before.slice(top.start, top.start + 32))?.[0];
  if (lead === undefined || span.start < top.start + lead.length + 1) return undefined;
  if (span.beforeEnd > top.end - 1 || before.charCodeAt(top.end - 1) !== 0x7d /* } */) return undefined;
  const decl = declarationOf(top.node);
  if (!decl || !edgesClosed(before, facts.tops, i)) return undefined;
  const fragment = after.slice(top.start, top.end + after.length - before.length);
  if (fragment.length > MAX_FRAGMENT_CHARS || fragment.charCodeAt(fragment.length - 1) !== 0x7d) return undefined;
  // no definition of the name outside N (a text without the name outside N has none)
  const first = before.indexOf(name);
  if ((first >= 0 && first + name.length <= top.start) || before.indexOf(name, top.end) >= 0) {
    if (namedDefinitionSpansCached(lang, tree, name).some(([s, e]) => s < top.start || e > top.end)) return undefined;
  }
  regionStats.fragments++;
  const parsed = napi().parse(lang.id as never, fragment);
  const root = parsed.root();
  const children = root.children();
  if (children.length !== 1) return undefined;
  const node = children[0]!;
  const { start, end } = node.range();
  if (start.index !== 0 || end.index !== fragment.length || kindOf(node) !== top.kind) return undefined;
  const newDecl = declarationOf(node);
  if (!newDecl || kindOf(newDecl) !== kindOf(decl) || nameOf(newDecl) === null || nameOf(newDecl) !== nameOf(decl)) return undefined;
  if (!isClean(root)) return undefined;
  const match = findSymbol(lang, parsed, name);
  if (!match) return undefined;
  regionStats.answered++;
  return { start: match.start + top.row, end: match.end + top.row, kind: match.kind };
}
