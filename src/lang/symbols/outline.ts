// The outline of a parsed file (fs_outline): every definition the language's rules know
// (lang/symbols/definitions.ts), with a short kind, its name, its line span and its nesting depth. Strong
// definitions count at any depth; weak ones and variables, fields and keys only at the top level
// or directly inside a strong definition that is not a function (a class's fields, a module's
// constants), so local variables do not crowd the outline.

import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import { nodeLines } from './blocks.js';
import type { LanguageInfo } from '../grammar/registry.js';
import { definitionRules } from './symbols.js';

export interface OutlineSymbol {
  /** Short kind: `function`, `class`, `method`, `struct`, `variable`, ... */
  kind: string;
  name: string;
  /** 1-based inclusive lines. */
  start: number;
  end: number;
  /** 0 at the top level. */
  depth: number;
}

const MAX_NAME = 80;

const KIND_NAMES: Record<string, string> = {
  variable_declarator: 'variable',
  lexical_declaration: 'variable',
  public_field_definition: 'field',
  field_definition: 'field',
  field_declaration: 'field',
  property_signature: 'property',
  method_definition: 'method',
  method_signature: 'method',
  abstract_method_signature: 'method',
  function_item: 'function',
  function_signature_item: 'function',
  impl_item: 'impl',
  mod_item: 'mod',
  internal_module: 'namespace',
  type_spec: 'type',
  type_alias_declaration: 'type',
  const_spec: 'const',
  var_spec: 'var',
  assignment: 'variable',
  block_mapping_pair: 'key',
  flow_pair: 'key',
  pair: 'key',
  table: 'table',
  table_array_element: 'table',
  section: 'section',
  rule_set: 'rule',
  call: 'def',
  preproc_def: 'macro',
  preproc_function_def: 'macro',
  macro_definition: 'macro',
  element: 'element',
};

/** A tree-sitter kind as a short word: `function_declaration` → `function`. */
export function shortKind(kind: string): string {
  return KIND_NAMES[kind] ?? kind.replace(/_(declaration|definition|item|statement|specifier|spec|signature|declarator)$/, '').replace(/^(generator_function|abstract_class)$/, (m) => (m === 'abstract_class' ? 'class' : 'function'));
}

const FUNCTION_LIKE = /function|method|constructor|lambda|arrow|closure|^def$|^call$/;
/** Kinds that are locals when they sit inside a function. */
const LOCAL_KINDS = /^(variable|const|var|let|key|field|property)$/;

interface Found {
  node: SgNode;
  first: SgNode;
  last: SgNode;
  name: string;
  kind: string;
  weak: boolean;
}

/** The definitions of a parsed file, in source order, nested by containment. */
export function outlineOf(lang: LanguageInfo, root: SgRoot): OutlineSymbol[] {
  const { rules, kinds } = definitionRules(lang);
  if (kinds.length === 0) return [];
  const config = { rule: { any: kinds.map((k) => ({ kind: k })) } } as unknown as NapiConfig;
  let nodes: SgNode[];
  try {
    nodes = root.root().findAll(config);
  } catch {
    return [];
  }
  const found: Found[] = [];
  for (const node of nodes) {
    const k = String(node.kind());
    for (const rule of rules) {
      if (!rule.kinds.includes(k)) continue;
      let name: string | null | undefined;
      try {
        name = rule.name ? rule.name(node) : ((node.field('name' as never) as SgNode | null)?.text() ?? null);
      } catch {
        name = null;
      }
      if (!name) continue;
      const { first, last } = rule.span ? rule.span(node) : { first: node, last: node };
      const oneLine = name.replace(/\s+/g, ' ').trim();
      found.push({ node, first, last, name: oneLine.length > MAX_NAME ? `${oneLine.slice(0, MAX_NAME - 3)}...` : oneLine, kind: shortKind(k), weak: rule.weak === true });
      break;
    }
  }
  const startOf = (f: Found) => f.first.range().start.index;
  const endOf = (f: Found) => f.last.range().end.index;
  found.sort((a, b) => startOf(a) - startOf(b) || endOf(b) - endOf(a));
  const out: OutlineSymbol[] = [];
  const stack: Array<{ end: number; f: Found; shown: boolean }> = [];
  for (const f of found) {
    const s = startOf(f);
    while (stack.length > 0 && stack[stack.length - 1]!.end <= s) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && (f.weak || LOCAL_KINDS.test(f.kind)) && (parent.f.weak || FUNCTION_LIKE.test(parent.f.kind))) continue;
    const depth = stack.filter((x) => x.shown).length;
    stack.push({ end: endOf(f), f, shown: true });
    out.push({ kind: f.kind, name: f.name, start: nodeLines(f.first).start, end: nodeLines(f.last).end, depth });
  }
  return out;
}
