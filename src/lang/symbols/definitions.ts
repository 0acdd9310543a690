// Which nodes count as definitions in each language, and what their name is. The rule of the
// reference is "a node whose `name` field equals the symbol"; here only definition kinds count (so
// `import { foo }` or a call `greet world` never match), and grammars that keep the name elsewhere
// get a small extractor: C/C++ declarator chains, JSON/YAML/TOML keys, a Markdown section's
// heading, an HTML element's `id`, a CSS rule's selector text, Elixir `def`/`defmodule` calls,
// SQL `CREATE` statements. A `weak` definition (a variable, a prototype) is used only when no
// strong one matches. `span` widens a match to what belongs with it (decorators, a Dart body).

import type { SgNode } from '@ast-grep/napi';

export interface DefinitionRule {
  kinds: readonly string[];
  /** The definition's name; default: the text of the `name` field. */
  name?: (node: SgNode) => string | null | undefined;
  /** The node whose lines are shown; default: the node itself. */
  span?: (node: SgNode) => { first: SgNode; last: SgNode };
  weak?: boolean;
}

const kindOf = (n: SgNode): string => String(n.kind());
const field = (n: SgNode | null | undefined, f: string): SgNode | null => (n ? (n.field(f as never) as SgNode | null) : null);
const nameField = (n: SgNode): string | null => field(n, 'name')?.text() ?? null;
const firstNamed = (n: SgNode, kinds: readonly string[]): SgNode | null => n.namedChildren().find((c) => kinds.includes(kindOf(c))) ?? null;
const unquote = (s: string): string => s.replace(/^(["'`])([\s\S]*)\1$/, '$2');
const lastSegment = (s: string): string => s.split(/::|\.|:|->/).pop()!.trim();

/** Follows `declarator` fields (C, C++) to the declared identifier's last segment. */
function declaratorName(node: SgNode): string | null {
  let d = field(node, 'declarator');
  for (let i = 0; d && i < 8; i++) {
    const k = kindOf(d);
    if (/identifier$|^destructor_name$|^operator_name$/.test(k)) return lastSegment(d.text());
    const next = field(d, 'declarator');
    if (!next) {
      const named = field(d, 'name');
      return named ? lastSegment(named.text()) : null;
    }
    d = next;
  }
  return null;
}

function isPrototype(node: SgNode): boolean {
  let d = field(node, 'declarator');
  for (let i = 0; d && i < 8; i++) {
    if (kindOf(d) === 'function_declarator') return true;
    d = field(d, 'declarator');
  }
  return false;
}

/** Widens to an enclosing wrapper of these kinds (a decorator list, an export, a statement). */
const wrappedBy = (kinds: readonly string[]) => (node: SgNode) => {
  let first = node;
  for (let p = node.parent(); p && kinds.includes(kindOf(p)); p = p.parent()) first = p;
  return { first, last: first };
};

const one = (n: SgNode) => ({ first: n, last: n });

const C_FAMILY: DefinitionRule[] = [
  { kinds: ['function_definition'], name: declaratorName },
  { kinds: ['struct_specifier', 'union_specifier', 'enum_specifier', 'class_specifier'], name: (n) => (field(n, 'body') ? nameField(n) : null) },
  { kinds: ['namespace_definition', 'preproc_def', 'preproc_function_def', 'concept_definition', 'alias_declaration'] },
  { kinds: ['type_definition'], name: declaratorName },
  { kinds: ['template_declaration'], name: (n) => { const inner = n.namedChildren().find((c) => ['function_definition', 'class_specifier', 'struct_specifier'].includes(kindOf(c))); return inner ? (kindOf(inner) === 'function_definition' ? declaratorName(inner) : nameField(inner)) : null; } },
  { kinds: ['declaration'], name: (n) => (isPrototype(n) ? null : declaratorName(field(n, 'declarator') && kindOf(field(n, 'declarator')!) === 'init_declarator' ? field(n, 'declarator')! : n)), weak: true },
  { kinds: ['declaration'], name: (n) => (isPrototype(n) ? declaratorName(n) : null), weak: true },
];

const JS_FAMILY: DefinitionRule[] = [
  {
    kinds: ['function_declaration', 'generator_function_declaration', 'class_declaration', 'abstract_class_declaration', 'class', 'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'internal_module', 'module'],
    span: wrappedBy(['export_statement']),
  },
  { kinds: ['method_definition', 'method_signature', 'abstract_method_signature', 'public_field_definition', 'function_signature'] },
  { kinds: ['field_definition'], name: (n) => field(n, 'property')?.text() ?? null },
  {
    kinds: ['variable_declarator'],
    name: (n) => { const id = field(n, 'name'); return id && kindOf(id) === 'identifier' ? id.text() : null; },
    span: (n) => { const decl = n.parent(); const only = decl && decl.namedChildren().filter((c) => kindOf(c) === 'variable_declarator').length === 1; return only ? wrappedBy(['lexical_declaration', 'variable_declaration', 'export_statement'])(n) : one(n); },
  },
  { kinds: ['property_signature', 'pair'], name: (n) => (kindOf(n) === 'pair' ? unquote(field(n, 'key')?.text() ?? '') : nameField(n)), weak: true },
];

const PY: DefinitionRule[] = [
  { kinds: ['function_definition', 'class_definition'], span: wrappedBy(['decorated_definition']) },
  { kinds: ['assignment'], name: (n) => { const l = field(n, 'left'); return l && kindOf(l) === 'identifier' ? l.text() : null; }, span: wrappedBy(['expression_statement']), weak: true },
];

/** A Haskell function with its type signature above and every equation after it. */
function haskellSpan(node: SgNode): { first: SgNode; last: SgNode } {
  const name = nameField(node);
  let first = node;
  const prev = node.prev();
  if (prev && kindOf(prev) === 'signature' && nameField(prev) === name) first = prev;
  let last = node;
  for (let n = node.next(); n && kindOf(n) === 'function' && nameField(n) === name; n = n.next()) last = n;
  return { first, last };
}

const ELIXIR_DEFS = ['def', 'defp', 'defmacro', 'defmacrop', 'defguard', 'defguardp', 'defdelegate', 'defmodule', 'defprotocol', 'defimpl'];

function elixirName(n: SgNode): string | null {
  const target = field(n, 'target');
  if (!target || !ELIXIR_DEFS.includes(target.text())) return null;
  const args = n.namedChildren().find((c) => kindOf(c) === 'arguments');
  let first = args?.namedChildren()[0];
  if (!first) return null;
  if (kindOf(first) === 'binary_operator') first = field(first, 'left') ?? first; // def f(x) when guard
  if (kindOf(first) === 'call') return field(first, 'target')?.text() ?? null;
  return first.text();
}

function htmlId(n: SgNode): string | null {
  const tag = firstNamed(n, ['start_tag', 'self_closing_tag']);
  if (!tag) return null;
  for (const a of tag.namedChildren()) {
    if (kindOf(a) !== 'attribute') continue;
    const parts = a.namedChildren();
    if (parts[0]?.text() !== 'id') continue;
    return parts[1] ? unquote(parts[1].text()) : null;
  }
  return null;
}

function markdownHeading(n: SgNode): string | null {
  const h = firstNamed(n, ['atx_heading', 'setext_heading']);
  if (!h) return null;
  const inline = firstNamed(h, ['inline', 'paragraph']);
  return inline ? inline.text().trim() : null;
}

function sqlName(n: SgNode): string | null {
  const ref = firstNamed(n, ['object_reference', 'identifier']);
  if (!ref) return null;
  return kindOf(ref) === 'object_reference' ? (nameField(ref) ?? lastSegment(ref.text())) : ref.text();
}

function tomlKey(n: SgNode): string | null {
  const k = firstNamed(n, ['bare_key', 'quoted_key', 'dotted_key']);
  return k ? unquote(k.text()) : null;
}

function kotlinName(n: SgNode): string | null {
  if (kindOf(n) === 'property_declaration') {
    const v = firstNamed(n, ['variable_declaration']);
    return v ? (firstNamed(v, ['simple_identifier'])?.text() ?? null) : null;
  }
  return firstNamed(n, ['simple_identifier', 'type_identifier'])?.text() ?? null;
}

function luaName(n: SgNode): string | null {
  const nm = field(n, 'name');
  return nm ? lastSegment(nm.text()) : null;
}

export const DEFINITIONS: Readonly<Record<string, readonly DefinitionRule[]>> = {
  javascript: JS_FAMILY,
  typescript: JS_FAMILY,
  tsx: JS_FAMILY,
  python: PY,
  rust: [
    { kinds: ['function_item', 'function_signature_item', 'struct_item', 'enum_item', 'union_item', 'trait_item', 'mod_item', 'type_item', 'const_item', 'static_item', 'macro_definition'] },
    { kinds: ['impl_item'], name: (n) => field(n, 'type')?.text().replace(/<.*$/s, '') ?? null, weak: true },
  ],
  go: [
    { kinds: ['function_declaration', 'method_declaration'] },
    { kinds: ['type_spec', 'type_alias'], span: (n) => { const p = n.parent(); return p && kindOf(p) === 'type_declaration' && p.namedChildren().length === 1 ? one(p) : one(n); } },
    { kinds: ['const_spec', 'var_spec'], weak: true },
  ],
  java: [
    { kinds: ['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration', 'method_declaration', 'constructor_declaration', 'enum_constant'] },
    { kinds: ['field_declaration'], name: (n) => field(field(n, 'declarator'), 'name')?.text() ?? null, weak: true },
  ],
  c: C_FAMILY,
  cpp: C_FAMILY,
  csharp: [
    { kinds: ['class_declaration', 'struct_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'namespace_declaration', 'method_declaration', 'constructor_declaration', 'property_declaration', 'delegate_declaration', 'event_declaration', 'enum_member_declaration', 'local_function_statement'] },
    { kinds: ['variable_declarator'], weak: true, span: wrappedBy(['variable_declaration', 'field_declaration']) },
  ],
  ruby: [
    { kinds: ['method', 'singleton_method', 'module', 'class', 'singleton_class'], name: (n) => { const nm = field(n, 'name'); return nm ? lastSegment(nm.text()) : null; } },
    { kinds: ['assignment'], name: (n) => { const l = field(n, 'left'); return l && kindOf(l) === 'constant' ? l.text() : null; }, weak: true },
  ],
  php: [
    { kinds: ['function_definition', 'class_declaration', 'interface_declaration', 'trait_declaration', 'enum_declaration', 'method_declaration', 'namespace_definition'] },
    { kinds: ['const_element', 'property_element'], name: (n) => (firstNamed(n, ['name', 'variable_name'])?.text() ?? '').replace(/^\$/, ''), weak: true },
  ],
  kotlin: [
    { kinds: ['class_declaration', 'object_declaration', 'function_declaration', 'type_alias'], name: kotlinName },
    { kinds: ['property_declaration'], name: kotlinName, weak: true },
  ],
  swift: [
    { kinds: ['class_declaration', 'protocol_declaration', 'function_declaration', 'protocol_function_declaration', 'typealias_declaration', 'init_declaration'] },
    { kinds: ['property_declaration'], name: (n) => field(n, 'name')?.text() ?? null, weak: true },
  ],
  bash: [
    { kinds: ['function_definition'] },
    { kinds: ['variable_assignment'], weak: true },
  ],
  json: [{ kinds: ['pair'], name: (n) => unquote(field(n, 'key')?.text() ?? '') }],
  yaml: [{ kinds: ['block_mapping_pair', 'flow_pair'], name: (n) => unquote(field(n, 'key')?.text().trim() ?? '') }],
  toml: [
    { kinds: ['table', 'table_array_element'], name: tomlKey },
    { kinds: ['pair'], name: tomlKey },
  ],
  html: [{ kinds: ['element'], name: htmlId }],
  css: [
    { kinds: ['rule_set'], name: (n) => firstNamed(n, ['selectors'])?.text().trim() ?? null },
    { kinds: ['keyframes_statement'], name: (n) => firstNamed(n, ['keyframes_name'])?.text() ?? null },
  ],
  scala: [
    { kinds: ['class_definition', 'object_definition', 'trait_definition', 'enum_definition', 'function_definition', 'function_declaration', 'type_definition', 'given_definition'] },
    { kinds: ['val_definition', 'var_definition'], name: (n) => field(n, 'pattern')?.text() ?? null, weak: true },
  ],
  lua: [{ kinds: ['function_declaration'], name: luaName }],
  dart: [
    { kinds: ['class_definition', 'mixin_declaration', 'extension_declaration', 'enum_declaration', 'type_alias'] },
    {
      kinds: ['function_signature', 'method_signature', 'getter_signature', 'setter_signature'],
      name: (n) => nameField(n) ?? (firstNamed(n, ['function_signature', 'getter_signature', 'setter_signature']) ? nameField(firstNamed(n, ['function_signature', 'getter_signature', 'setter_signature'])!) : null),
      span: (n) => { const next = n.next(); return next && kindOf(next) === 'function_body' ? { first: n, last: next } : one(n); },
    },
  ],
  elixir: [{ kinds: ['call'], name: elixirName }],
  haskell: [
    { kinds: ['function'], span: haskellSpan },
    { kinds: ['data_type', 'newtype', 'type_synomym', 'type_synonym', 'class', 'instance', 'type_family'] },
    { kinds: ['signature', 'bind'], weak: true },
  ],
  sql: [
    {
      kinds: ['create_table', 'create_view', 'create_function', 'create_index', 'create_type', 'create_schema', 'create_materialized_view', 'create_trigger', 'create_sequence'],
      name: sqlName,
      span: wrappedBy(['statement']),
    },
  ],
  markdown: [{ kinds: ['section'], name: markdownHeading }],
};
