// Finding a definition by name in a parsed file (fs_read `symbol`): the candidates of the file's
// definition kinds are collected natively by ast-grep (their text must contain the name), then
// checked in pre-order, so the outermost definition with that exact name wins, as in the
// reference. Weak definitions (variables, prototypes) count only when no strong one matches.

import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import { nodeLines, type LineSpan } from './blocks.js';
import { DEFINITIONS, type DefinitionRule } from './definitions.js';
import type { LanguageInfo } from '../grammar/registry.js';

interface Compiled {
  rules: DefinitionRule[];
  kinds: string[];
}

const compiled = new Map<string, Compiled>();

/** The rules of a language restricted to kinds its grammar knows. */
function rulesFor(lang: LanguageInfo): Compiled {
  const hit = compiled.get(lang.id);
  if (hit) return hit;
  const known = (k: string): boolean => {
    try {
      return napi().kind(lang.id as never, k as never) !== 0;
    } catch {
      return false;
    }
  };
  const rules = (DEFINITIONS[lang.id.toLowerCase()] ?? []).map((r) => ({ ...r, kinds: r.kinds.filter(known) })).filter((r) => r.kinds.length > 0);
  const out = { rules, kinds: [...new Set(rules.flatMap((r) => r.kinds))] };
  compiled.set(lang.id, out);
  return out;
}

/** The definition rules of a language, restricted to kinds its grammar knows (shared with outlines and references). */
export function definitionRules(lang: LanguageInfo): { rules: readonly DefinitionRule[]; kinds: readonly string[] } {
  return rulesFor(lang);
}

/** True when symbol reads know definitions for this language. */
export function hasDefinitions(lang: LanguageInfo): boolean {
  return rulesFor(lang).kinds.length > 0;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface SymbolMatch extends LineSpan {
  /** The definition node's kind. */
  kind: string;
}

/** The lines of the outermost definition named `name`, or null. */
export function findSymbol(lang: LanguageInfo, root: SgRoot, name: string): SymbolMatch | null {
  const { rules, kinds } = rulesFor(lang);
  if (kinds.length === 0 || name === '') return null;
  const config = { rule: { any: kinds.map((k) => ({ kind: k })), regex: escapeRegex(name) } } as unknown as NapiConfig;
  let candidates: SgNode[];
  try {
    candidates = root.root().findAll(config);
  } catch {
    return null;
  }
  candidates.sort((a, b) => a.range().start.index - b.range().start.index || b.range().end.index - a.range().end.index);
  let weak: SymbolMatch | null = null;
  for (const node of candidates) {
    const k = String(node.kind());
    for (const rule of rules) {
      if (!rule.kinds.includes(k)) continue;
      if (rule.weak && weak) continue;
      const found = rule.name ? rule.name(node) : ((node.field('name' as never) as SgNode | null)?.text() ?? null);
      if (found !== name) continue;
      const { first, last } = rule.span ? rule.span(node) : { first: node, last: node };
      const match = { start: nodeLines(first).start, end: nodeLines(last).end, kind: k };
      if (!rule.weak) return match;
      weak = match;
    }
  }
  return weak;
}

/** Lookups made on each tree, so a name asked again of the same text is not searched again. */
const found = new WeakMap<SgRoot, Map<string, SymbolMatch | null>>();

/** findSymbol, remembered per tree and name. */
export function findSymbolCached(lang: LanguageInfo, root: SgRoot, name: string): SymbolMatch | null {
  let byName = found.get(root);
  if (!byName) found.set(root, (byName = new Map()));
  if (byName.has(name)) return byName.get(name)!;
  const match = findSymbol(lang, root, name);
  if (byName.size >= 64) byName.delete(byName.keys().next().value as string);
  byName.set(name, match);
  return match;
}
