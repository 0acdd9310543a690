// Compiling a structural pattern for one grammar. A pattern that parses on its own is used as it
// is; one that only parses inside a context (a Go call, which Go allows only in a function body; a
// Rust or Java statement) gets one derived: the pattern is wrapped in a function body (or a class
// body), the node that spans exactly the pattern gives the selector, and the result is checked by
// matching it against its own context. A pattern that parses nowhere is an error for the caller
// to report per file, never an exception.

import { createRequire } from 'node:module';
import type { NapiConfig, SgNode } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import { isAvailable, type LanguageInfo } from '../grammar/registry.js';
import { grammarNotInstalled } from '../../core/messages/lang.js';

export type Matcher = string | NapiConfig;

export type CompiledPattern =
  | {
      readonly ok: true;
      readonly matchers: readonly Matcher[];
      readonly words: readonly string[];
      /** The pattern's trailing `;` is not part of the node it selects (a class field): a match takes the `;` after it. */
      readonly takesSemicolon?: boolean;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * Wrappers tried, in order, when a pattern does not parse on its own: [before, after]. The pattern
 * is also tried with a `;` after it, so an expression (`System.out.println($A)`) finds its statement.
 */
const CONTEXTS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  go: [['package p\nfunc hashlineCtx() {\n', '\n}\n'], ['package p\n', '\n']],
  rust: [['fn hashline_ctx() {\n', '\n}\n'], ['impl HashlineCtx {\n', '\n}\n']],
  java: [['class HashlineCtx {\nvoid hashlineCtx() {\n', '\n}\n}\n'], ['class HashlineCtx {\n', '\n}\n']],
  csharp: [['class HashlineCtx {\nvoid hashlineCtx() {\n', '\n}\n}\n'], ['class HashlineCtx {\n', '\n}\n']],
  c: [['void hashlineCtx() {\n', '\n}\n']],
  cpp: [['void hashlineCtx() {\n', '\n}\n'], ['class HashlineCtx {\n', '\n};\n']],
  kotlin: [['fun hashlineCtx() {\n', '\n}\n'], ['class HashlineCtx {\n', '\n}\n']],
  swift: [['func hashlineCtx() {\n', '\n}\n']],
  scala: [['object HashlineCtx {\ndef hashlineCtx() = {\n', '\n}\n}\n']],
  dart: [['void hashlineCtx() {\n', '\n}\n'], ['class HashlineCtx {\n', '\n}\n']],
  php: [['<?php\n', '\n'], ['<?php\nfunction hashlineCtx() {\n', '\n}\n']],
  typescript: [['class HashlineCtx {\n', '\n}\n']],
  tsx: [['class HashlineCtx {\n', '\n}\n']],
  javascript: [['class HashlineCtx {\n', '\n}\n']],
};

/**
 * Grammars whose bare parse of a pattern can be valid but not what code means (Go reads
 * `fmt.Println(x)` at top level as a type conversion; Rust statements), so the first working
 * context is used as well as the bare pattern, and matches of both are merged.
 */
const ALSO_CONTEXT: ReadonlySet<string> = new Set(['go', 'rust']);

const expandoCache = new Map<string, string>();

/** The character ast-grep substitutes for `$` before parsing a pattern in this grammar. */
function expandoChar(lang: LanguageInfo): string {
  if (!lang.pkg) return '$';
  let c = expandoCache.get(lang.id);
  if (c === undefined) {
    try {
      const mod = createRequire(import.meta.url)(lang.pkg) as { expandoChar?: string };
      c = mod.expandoChar ?? '$';
    } catch {
      c = '$';
    }
    expandoCache.set(lang.id, c);
  }
  return c;
}

/** How well a pattern parsed: 0 cleanly, 1 with artifacts ast-grep tolerates, 2 with a real syntax error. */
type Level = 0 | 1 | 2;

/**
 * The parse quality of a tree: an ERROR node holding nothing but metavariables (`$$$B` where the
 * grammar wants items) and a missing `;` after a metavariable statement are artifacts of the
 * pattern language (level 1); any other ERROR node or invented (zero-width) node is a syntax error.
 */
function syntaxLevel(node: SgNode, exp: string): Level {
  const metavars = new RegExp(`[${exp === '$' ? '\\$' : exp}]{1,3}[A-Z_][A-Z0-9_]*|[\\s,;]`, 'g');
  let level: Level = 0;
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.kind() === 'ERROR') {
      if (n.text().replace(metavars, '') !== '') return 2;
      level = 1;
      continue;
    }
    const r = n.range();
    if (n !== node && r.start.index === r.end.index && n.isLeaf()) {
      if (n.kind() !== ';' && !String(n.kind()).includes('semicolon')) return 2;
      level = 1;
    }
    stack.push(...n.children());
  }
  return level;
}

/** The deepest node whose range is exactly [start, end). */
function nodeSpanning(root: SgNode, start: number, end: number): SgNode | null {
  let found: SgNode | null = null;
  let cur: SgNode | null = root;
  while (cur !== null) {
    const r = cur.range();
    if (r.start.index === start && r.end.index === end) found = cur;
    let next: SgNode | null = null;
    for (const c of cur.children()) {
      const cr = c.range();
      if (cr.start.index <= start && cr.end.index >= end && !(cr.start.index === cr.end.index)) {
        next = c;
        break;
      }
    }
    cur = next;
  }
  return found;
}

/** Words (identifiers, keywords) of the pattern outside metavariables: a match must contain each. */
export function patternWords(pat: string): string[] {
  const words = new Set<string>();
  const re = /\$*[A-Za-z_][A-Za-z0-9_]*/g;
  for (let m = re.exec(pat); m !== null; m = re.exec(pat)) {
    const w = m[0];
    if (w.startsWith('$') || w.length < 2) continue;
    words.add(w);
  }
  return [...words];
}

function tryDirect(langId: string, pat: string, exp: string): { ok: boolean; level: Level; error?: string } {
  try {
    const root = napi().parse(langId, pat.split('$').join(exp)).root();
    const level = syntaxLevel(root, exp);
    if (level === 2) return { ok: false, level };
    return { ok: root.find(pat) !== null, level };
  } catch (e) {
    return { ok: false, level: 2, error: (e as Error).message };
  }
}

interface ContextMatch {
  config: NapiConfig;
  level: Level;
  takesSemicolon: boolean;
}

function tryContext(langId: string, pat: string, exp: string, before: string, after: string): ContextMatch | null {
  const context = before + pat + after;
  try {
    const root = napi().parse(langId, context.split('$').join(exp)).root();
    const level = syntaxLevel(root, exp);
    if (level === 2) return null;
    const lead = pat.length - pat.trimStart().length;
    const start = before.length + lead;
    let end = before.length + pat.trimEnd().length;
    let target = nodeSpanning(root, start, end);
    // a class field's node may leave its `;` to the class body
    if (target === null && pat.trimEnd().endsWith(';')) target = nodeSpanning(root, start, --end);
    if (target === null) return null;
    const config: NapiConfig = { rule: { pattern: { context, selector: target.kind() } } } as NapiConfig;
    const self = root.findAll(config).some((n) => n.range().start.index === start && n.range().end.index === end);
    return self ? { config, level, takesSemicolon: end < before.length + pat.trimEnd().length } : null;
  } catch {
    return null;
  }
}

/** The best derived context: the first clean one, else the first tolerable one. */
function bestContext(langId: string, pat: string, exp: string): ContextMatch | null {
  let fallback: ContextMatch | null = null;
  for (const [before, after] of CONTEXTS[langId.toLowerCase()] ?? []) {
    for (const tail of pat.trimEnd().endsWith(';') ? [after] : [after, `;${after}`]) {
      const c = tryContext(langId, pat, exp, before, tail);
      if (c?.level === 0) return c;
      fallback ??= c;
    }
  }
  return fallback;
}

const compiled = new Map<string, CompiledPattern>();

/** Compiles `pat` for `lang` (cached). Never throws for a bad pattern: `ok: false` with a reason. */
export function compilePattern(lang: LanguageInfo, pat: string): CompiledPattern {
  const key = `${lang.id}\u0000${pat}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const result = compileUncached(lang, pat);
  if (compiled.size > 256) compiled.clear();
  compiled.set(key, result);
  return result;
}

function compileUncached(lang: LanguageInfo, pat: string): CompiledPattern {
  if (!isAvailable(lang)) return { ok: false, reason: grammarNotInstalled(lang.id) };
  const exp = expandoChar(lang);
  const words = patternWords(pat);
  const direct = tryDirect(lang.id, pat, exp);
  const context = direct.ok && direct.level === 0 && !ALSO_CONTEXT.has(lang.id) ? null : bestContext(lang.id, pat, exp);
  const matchers: Matcher[] = [];
  // the bare pattern when it parses cleanly, or as well as the context cannot
  if (direct.ok && (direct.level === 0 || context === null || context.level === 1)) matchers.push(pat);
  if (context && (matchers.length === 0 || ALSO_CONTEXT.has(lang.id))) matchers.push(context.config);
  if (matchers.length > 0) return { ok: true, matchers, words, ...(context?.takesSemicolon && matchers.includes(context.config) ? { takesSemicolon: true } : {}) };
  const why = direct.error ?? 'it has a syntax error, or is not one complete node (expression, statement or declaration)';
  return { ok: false, reason: why };
}
