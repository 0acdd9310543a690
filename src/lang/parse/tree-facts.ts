// Facts about a whole parsed tree that a re-parse of one definition (lang/symbols/symbol-region.ts) relies
// on, computed once per tree and kept beside it: whether the tree is clean (no ERROR node and no
// zero-width node, which is how tree-sitter's MISSING tokens show), the spans of its top-level nodes,
// and, per name, where the definitions of that name are by the rules symbol reads use. Positions
// are ast-grep's: UTF-16 code units from the start of the text; rows are 0-based.

import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import type { LanguageInfo } from '../grammar/registry.js';
import { definitionRules } from '../symbols/symbols.js';

export interface TopNode {
  /** UTF-16 offsets of the node in the text, end exclusive. */
  readonly start: number;
  readonly end: number;
  /** 0-based row of the node's start. */
  readonly row: number;
  readonly kind: string;
  readonly node: SgNode;
}

export interface TreeFacts {
  /** No ERROR node and no zero-width node anywhere in the tree. */
  readonly clean: boolean;
  /** The root's children (named or not), in order. */
  readonly tops: readonly TopNode[];
}

/** An ERROR node, or any node whose text is empty (a MISSING token inserted by error recovery). */
const BROKEN = { rule: { any: [{ kind: 'ERROR' }, { regex: '^$' }] } } as unknown as NapiConfig;

const facts = new WeakMap<SgRoot, TreeFacts>();

/** True when the facts of this tree are already computed. */
export function hasTreeFacts(tree: SgRoot): boolean {
  return facts.has(tree);
}

/** The facts of `tree` (computed on first use: one native walk of the tree). */
export function treeFacts(tree: SgRoot): TreeFacts {
  const hit = facts.get(tree);
  if (hit) return hit;
  const out: TreeFacts = { clean: isClean(tree.root()), tops: topNodes(tree.root()) };
  facts.set(tree, out);
  return out;
}

/** No ERROR node and no empty node under `root` (an empty text counts as not clean). */
export function isClean(root: SgNode): boolean {
  return root.find(BROKEN) === null;
}

function topNodes(root: SgNode): TopNode[] {
  return root.children().map((node) => {
    const { start, end } = node.range();
    return { start: start.index, end: end.index, row: start.line, kind: String(node.kind()), node };
  });
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The spans [start, end) of every node of `root` that is a definition named `name` by any rule of
 * the language (strong or weak), in the order of the text. The same candidates as `findSymbol`.
 */
export function namedDefinitionSpans(lang: LanguageInfo, root: SgNode, name: string): Array<readonly [number, number]> {
  const { rules, kinds } = definitionRules(lang);
  if (kinds.length === 0 || name === '') return [];
  const config = { rule: { any: kinds.map((k) => ({ kind: k })), regex: escapeRegex(name) } } as unknown as NapiConfig;
  const out: Array<readonly [number, number]> = [];
  for (const node of root.findAll(config)) {
    const k = String(node.kind());
    const named = rules.some((rule) => rule.kinds.includes(k) && (rule.name ? rule.name(node) : ((node.field('name' as never) as SgNode | null)?.text() ?? null)) === name);
    if (named) {
      const { start, end } = node.range();
      out.push([start.index, end.index]);
    }
  }
  return out;
}

const spans = new WeakMap<SgRoot, Map<string, Array<readonly [number, number]>>>();

/** namedDefinitionSpans of the whole tree, remembered per tree and name. */
export function namedDefinitionSpansCached(lang: LanguageInfo, tree: SgRoot, name: string): Array<readonly [number, number]> {
  let byName = spans.get(tree);
  if (!byName) spans.set(tree, (byName = new Map()));
  const hit = byName.get(name);
  if (hit) return hit;
  const found = namedDefinitionSpans(lang, tree.root(), name);
  if (byName.size >= 64) byName.delete(byName.keys().next().value as string);
  byName.set(name, found);
  return found;
}
