// Where an identifier is used in a parsed file (fs_references; later the delete checks): the
// grammar's identifier and member-name nodes whose text is exactly the name, so comments, strings
// and longer names never count. Each use gets a role: the name of a definition (the language's
// definition rules, lang/symbols/definitions.ts), part of an import, the callee of a call (`f(x)`,
// `a.f(x)`, `new F()`, `f!()`), or any other reference.

import type { NapiConfig, SgNode, SgRoot } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import type { LanguageInfo } from '../grammar/registry.js';
import { definitionRules } from '../symbols/symbols.js';

export type ReferenceRole = 'definition' | 'import' | 'call' | 'reference';

export interface Reference {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 units. */
  column: number;
  role: ReferenceRole;
}

/** Node kinds that name things, across the grammars (each grammar keeps those it knows). */
const NAME_KINDS = [
  'identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern',
  'private_property_identifier', 'field_identifier', 'type_identifier', 'package_identifier', 'namespace_identifier',
  'simple_identifier', 'constant', 'name', 'word', 'value_identifier', 'attribute_name', 'method_identifier',
];
const IMPORT_KINDS = /^(import_statement|import_declaration|import_from_statement|future_import_statement|import_spec|import_spec_list|use_declaration|use_clause|using_directive|extern_crate_declaration|import_header|import_list|namespace_use_declaration|namespace_use_clause)$/;
const MEMBER_KINDS = /member_expression|^attribute$|field_expression|selector_expression|scoped_identifier|navigation_expression|generic_function|qualified_identifier|member_access_expression|field_access|scoped_type_identifier|dot_index_expression|method_index_expression/;
const CALL_KINDS = /call_expression|^call$|method_invocation|invocation_expression|new_expression|macro_invocation|function_call|method_call|object_creation_expression|^command$/;
const CALLEE_FIELDS = ['function', 'constructor', 'macro', 'name', 'method', 'type'];
/** Parts of a definition that hold uses, not the definition's own name. */
const BODY_FIELDS = ['body', 'value', 'parameters', 'arguments', 'return_type', 'type_parameters', 'superclass', 'result', 'type', 'trait'];

const kindsCache = new Map<string, string[]>();

function nameKinds(lang: LanguageInfo): string[] {
  let ks = kindsCache.get(lang.id);
  if (!ks) {
    ks = NAME_KINDS.filter((k) => {
      try {
        return napi().kind(lang.id as never, k as never) !== 0;
      } catch {
        return false;
      }
    });
    kindsCache.set(lang.id, ks);
  }
  return ks;
}

export function escapeForRule(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const within = (n: SgNode, outer: SgNode | null): boolean => {
  if (!outer) return false;
  const a = n.range();
  const b = outer.range();
  return a.start.index >= b.start.index && a.end.index <= b.end.index;
};

const sameSpan = (a: SgNode | null, b: SgNode): boolean => {
  if (!a) return false;
  const x = a.range();
  const y = b.range();
  return x.start.index === y.start.index && x.end.index === y.end.index;
};

function isDefinitionName(lang: LanguageInfo, node: SgNode, name: string): boolean {
  const { rules } = definitionRules(lang);
  let a = node.parent();
  for (let up = 0; a && up < 4; up++, a = a.parent()) {
    const k = String(a.kind());
    const rule = rules.find((r) => r.kinds.includes(k));
    if (!rule) continue;
    let defName: string | null | undefined;
    try {
      defName = rule.name ? rule.name(a) : ((a.field('name' as never) as SgNode | null)?.text() ?? null);
    } catch {
      defName = null;
    }
    if (defName !== name) return false;
    const holder = a;
    return !BODY_FIELDS.some((f) => {
      if (f === 'type' && sameSpan(holder.field('name' as never) as SgNode | null, node)) return false;
      return within(node, holder.field(f as never) as SgNode | null);
    });
  }
  return false;
}

function isImport(node: SgNode): boolean {
  let a = node.parent();
  for (let up = 0; a && up < 8; up++, a = a.parent()) if (IMPORT_KINDS.test(String(a.kind()))) return true;
  return false;
}

function isCallee(node: SgNode): boolean {
  let c = node;
  for (let p = c.parent(); p && MEMBER_KINDS.test(String(p.kind())) && p.range().end.index === c.range().end.index; p = c.parent()) c = p;
  const call = c.parent();
  if (!call || !CALL_KINDS.test(String(call.kind()))) return false;
  for (const f of CALLEE_FIELDS) {
    const callee = call.field(f as never) as SgNode | null;
    if (callee) return sameSpan(callee, c) || sameSpan(callee, node);
  }
  return sameSpan(call.namedChildren()[0] ?? null, c);
}

/** The uses of `name` in a parsed file, in source order. */
export function referencesIn(lang: LanguageInfo, root: SgRoot, name: string): Reference[] {
  const kinds = nameKinds(lang);
  if (kinds.length === 0 || name === '') return [];
  const config = { rule: { any: kinds.map((k) => ({ kind: k })), regex: `^${escapeForRule(name)}$` } } as unknown as NapiConfig;
  let nodes: SgNode[];
  try {
    nodes = root.root().findAll(config);
  } catch {
    return [];
  }
  const out: Reference[] = [];
  for (const node of nodes) {
    if (node.text() !== name) continue;
    // a name node inside another name node (e.g. PHP `name` inside `variable_name`) counts once
    const parent = node.parent();
    if (parent && kinds.includes(String(parent.kind())) && parent.text() === name) continue;
    const role: ReferenceRole = isDefinitionName(lang, node, name) ? 'definition' : isImport(node) ? 'import' : isCallee(node) ? 'call' : 'reference';
    const { start } = node.range();
    out.push({ line: start.line + 1, column: start.column + 1, role });
  }
  out.sort((a, b) => a.line - b.line || a.column - b.column);
  return out;
}
