// What a parsed file imports, by language, read off its syntax tree (so comments and strings never
// count): TypeScript/JavaScript static imports, `export ... from`, `import x = require()`,
// `require("...")` and `import("...")` with a literal specifier; Python `import` and `from ...
// import`; Rust `mod name;` (with a `#[path]`) and `use crate::/self::/super::` paths; Go import
// specs; CSS/SCSS `@import`, `@use` and `@forward`. Where each import points is
// lang/references/import-targets.ts's question. Specifiers computed at run time are not followed.

import type { SgNode, SgRoot } from '@ast-grep/napi';
import type { LanguageInfo } from '../grammar/registry.js';

export type ImportRef =
  /** A path-like specifier, resolved relative to the importing file (scripts, style sheets). */
  | { kind: 'path'; spec: string; line: number }
  /** Python: `level` leading dots (0: absolute), the dotted module, and the names imported from it. */
  | { kind: 'python'; level: number; module: string[]; names: string[]; line: number }
  /** Rust `mod name;` (a module in its own file), with its `#[path = "..."]` when there is one. */
  | { kind: 'rust-mod'; name: string; pathAttr?: string; line: number }
  /** Rust `use` path starting with crate, self or super (segments as written). */
  | { kind: 'rust-use'; segments: string[]; line: number }
  /** Go import path. */
  | { kind: 'go'; path: string; line: number };

/** The import families scanned, by grammar. */
export type ImportFamily = 'script' | 'style' | 'python' | 'rust' | 'go';

const FAMILY: Record<string, ImportFamily> = {
  JavaScript: 'script',
  TypeScript: 'script',
  Tsx: 'script',
  Css: 'style',
  python: 'python',
  rust: 'rust',
  go: 'go',
};

export function importFamily(lang: LanguageInfo): ImportFamily | undefined {
  return FAMILY[lang.id];
}

const lineOf = (n: SgNode) => n.range().start.line + 1;
const field = (n: SgNode, name: string) => n.field(name as never) as SgNode | null;

/** The value of a string literal node without its quotes; null for a template with substitutions. */
function literal(n: SgNode | null): string | null {
  if (!n) return null;
  const kind = String(n.kind());
  if (kind === 'template_string') {
    const t = n.text();
    return t.includes('${') ? null : t.slice(1, -1);
  }
  if (kind === 'string' || kind === 'string_literal' || kind === 'interpreted_string_literal' || kind === 'raw_string_literal' || kind === 'string_value') {
    return n.text().slice(1, -1);
  }
  return null;
}

function scriptImports(root: SgNode): ImportRef[] {
  const out: ImportRef[] = [];
  const nodes = root.findAll({ rule: { any: [{ kind: 'import_statement' }, { kind: 'export_statement' }, { kind: 'call_expression' }] } });
  for (const n of nodes) {
    let spec: string | null = null;
    if (n.kind() === 'call_expression') {
      const fn = field(n, 'function');
      const isImport = fn !== null && (fn.kind() === 'import' || (fn.kind() === 'identifier' && fn.text() === 'require'));
      if (!isImport) continue;
      spec = literal(field(n, 'arguments')?.namedChildren()[0] ?? null);
    } else {
      spec = literal(field(n, 'source'));
      if (spec === null && n.kind() === 'import_statement') {
        const req = n.children().find((c) => c.kind() === 'import_require_clause');
        spec = literal(req?.children().find((c) => c.kind() === 'string') ?? null);
      }
    }
    if (spec !== null) out.push({ kind: 'path', spec, line: lineOf(n) });
  }
  return out;
}

/** The quoted specifiers right after an at-keyword, read from the source (the CSS grammar does not know SCSS's `@use`). */
function specsAfter(text: string, from: number): string[] {
  const specs: string[] = [];
  let i = from;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('url(', i)) i += 4;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") break;
    const end = text.indexOf(quote, i + 1);
    if (end < 0) break;
    specs.push(text.slice(i + 1, end));
    i = end + 1;
    if (text[i] === ')') i++;
    while (i < text.length && /[ \t]/.test(text[i]!)) i++;
    if (text[i] !== ',') break;
    i++;
  }
  return specs;
}

function styleImports(root: SgNode, text: string): ImportRef[] {
  const out: ImportRef[] = [];
  for (const n of root.findAll({ rule: { any: [{ kind: 'at_keyword' }, { kind: 'import_statement' }] } })) {
    const keyword = n.kind() === 'import_statement' ? n.children()[0] : n;
    if (!keyword || !/^@(import|use|forward)$/.test(keyword.text())) continue;
    for (const spec of specsAfter(text, keyword.range().end.index)) out.push({ kind: 'path', spec, line: lineOf(keyword) });
  }
  return out;
}

const dotted = (n: SgNode | null): string[] => (n ? n.text().split('.').map((s) => s.trim()).filter((s) => s !== '') : []);

function pythonImports(root: SgNode): ImportRef[] {
  const out: ImportRef[] = [];
  for (const n of root.findAll({ rule: { any: [{ kind: 'import_statement' }, { kind: 'import_from_statement' }] } })) {
    const line = lineOf(n);
    const nameOf = (c: SgNode) => dotted(c.kind() === 'aliased_import' ? field(c, 'name') : c);
    if (n.kind() === 'import_statement') {
      for (const c of n.fieldChildren('name' as never) as SgNode[]) out.push({ kind: 'python', level: 0, module: nameOf(c), names: [], line });
      continue;
    }
    const mod = field(n, 'module_name');
    let level = 0;
    let module: string[] = [];
    if (mod?.kind() === 'relative_import') {
      const prefix = mod.children().find((c) => c.kind() === 'import_prefix');
      level = prefix ? prefix.text().length : 0;
      module = dotted(mod.children().find((c) => c.kind() === 'dotted_name') ?? null);
    } else {
      module = dotted(mod);
    }
    const names = (n.fieldChildren('name' as never) as SgNode[]).map((c) => nameOf(c).join('.')).filter((s) => s !== '');
    out.push({ kind: 'python', level, module, names, line });
  }
  return out;
}

/** The segments of a `use` tree, expanded over `{...}` lists (`use crate::a::{b, c::d}` → [crate,a,b], [crate,a,c,d]). */
function useTrees(n: SgNode, prefix: string[]): string[][] {
  const kind = String(n.kind());
  if (kind === 'scoped_use_list') {
    const base = field(n, 'path');
    const list = field(n, 'list');
    const head = base ? [...prefix, ...base.text().split('::')] : prefix;
    return list ? list.namedChildren().flatMap((c) => useTrees(c, head)) : [head];
  }
  if (kind === 'use_list') return n.namedChildren().flatMap((c) => useTrees(c, prefix));
  if (kind === 'use_as_clause') {
    const p = field(n, 'path');
    return p ? useTrees(p, prefix) : [];
  }
  if (kind === 'use_wildcard') {
    const p = n.namedChildren()[0];
    return p ? useTrees(p, prefix) : [prefix];
  }
  return [[...prefix, ...n.text().split('::').map((s) => s.trim())]];
}

function rustImports(root: SgNode): ImportRef[] {
  const out: ImportRef[] = [];
  for (const n of root.findAll({ rule: { any: [{ kind: 'mod_item' }, { kind: 'use_declaration' }] } })) {
    const line = lineOf(n);
    if (n.kind() === 'mod_item') {
      if (field(n, 'body')) continue; // an inline module: no file of its own
      const name = field(n, 'name')?.text();
      if (!name) continue;
      let pathAttr: string | undefined;
      for (let p = n.prev(); p && p.kind() === 'attribute_item'; p = p.prev()) {
        const m = /^#\[\s*path\s*=\s*"([^"]*)"\s*\]$/.exec(p.text());
        if (m) pathAttr = m[1];
      }
      out.push({ kind: 'rust-mod', name, ...(pathAttr === undefined ? {} : { pathAttr }), line });
      continue;
    }
    const arg = field(n, 'argument');
    if (!arg) continue;
    for (const segments of useTrees(arg, [])) {
      if (['crate', 'self', 'super'].includes(segments[0] ?? '')) out.push({ kind: 'rust-use', segments, line });
    }
  }
  return out;
}

function goImports(root: SgNode): ImportRef[] {
  const out: ImportRef[] = [];
  for (const n of root.findAll({ rule: { kind: 'import_spec' } })) {
    const p = literal(field(n, 'path'));
    if (p !== null) out.push({ kind: 'go', path: p, line: lineOf(n) });
  }
  return out;
}

/** The imports of a parsed file of an import family (none for other grammars). */
export function importsOf(lang: LanguageInfo, root: SgRoot, text: string): ImportRef[] {
  const top = root.root();
  switch (importFamily(lang)) {
    case 'script':
      return scriptImports(top);
    case 'style':
      return styleImports(top, text);
    case 'python':
      return pythonImports(top);
    case 'rust':
      return rustImports(top);
    case 'go':
      return goImports(top);
    default:
      return [];
  }
}
