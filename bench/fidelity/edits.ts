// The edits an agent makes to one function, as line hunks against the file as read: a rewrite of
// part of the body, an insertion, a deletion, the rename of a local, and the move of a few lines.
// Every hunk stays strictly inside the function (its first and last lines are never touched), so a
// move or copy of the whole function keeps the edit inside what moved.

import { indentOf } from './doc.js';
import type { Lang, Target } from './corpus.js';
import type { AbstractEdit, EditKind, Hunk } from './oracle.js';
import type { Rng } from './rng.js';

export const EDIT_KINDS: readonly EditKind[] = ['body-rewrite', 'insertion', 'deletion', 'rename-local', 'block-move'];

const COMMENT: Record<Lang, string> = { javascript: '//', typescript: '//', go: '//', rust: '//', c: '//', python: '#' };

export function commentPrefix(lang: Lang): string {
  return COMMENT[lang];
}

/** A block comment pair for text inside a line (a trailing `#` comment for Python). */
export function inlineComment(lang: Lang): { open: string; close: string } {
  return lang === 'python' ? { open: '  # ', close: '' } : { open: ' /* ', close: ' */' };
}

/** A plausible new statement in the language. */
export function statement(lang: Lang, fn: string, k: number): string {
  switch (lang) {
    case 'python':
      return `logger.debug("${fn}: step %d", ${k})`;
    case 'go':
      return `log.Printf("${fn}: step %d", ${k})`;
    case 'rust':
      return `eprintln!("${fn}: step {}", ${k});`;
    case 'c':
      return `fprintf(stderr, "${fn}: step %d\\n", ${k});`;
    default:
      return `console.debug('${fn}: step ${k}');`;
  }
}

const KEYWORDS = new Set(
  'if else for while do return function const let var new this self def class import from export default async await try catch finally throw switch case break continue in of not and or is None True False null undefined true false void typeof instanceof yield lambda with as pass raise except elif global nonlocal del assert struct int char long unsigned signed static extern sizeof func go defer chan map range type package fn mut pub impl use mod match loop where'.split(' '),
);

interface Ctx {
  readonly lines: readonly string[];
  readonly lang: Lang;
  readonly t: Target;
  readonly rng: Rng;
  /** 0-based lines that may be edited: strictly inside the function, after its definition line. */
  readonly lo: number;
  readonly hi: number;
}

function indentFor(lines: readonly string[], at: number, lo: number, hi: number): string {
  for (let i = at; i <= hi; i++) if (lines[i]!.trim() !== '') return indentOf(lines[i]!);
  for (let i = at - 1; i >= lo; i--) if (lines[i]!.trim() !== '') return indentOf(lines[i]!);
  return '    ';
}

/** Changes one line the way a rewrite would: a literal, an identifier, or an argument. */
function rewriteLine(line: string, rng: Rng, k: number): string {
  const num = /\b\d+\b/.exec(line);
  if (num && rng.chance(0.6)) return line.slice(0, num.index) + String(Number(num[0]) + 1 + k) + line.slice(num.index + num[0].length);
  const str = /(["'])([^"'\\]{1,40})\1/.exec(line);
  if (str && rng.chance(0.6)) return line.slice(0, str.index) + `${str[1]}${str[2]} (v${k + 2})${str[1]}` + line.slice(str.index + str[0].length);
  const ids = [...line.matchAll(/\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g)].filter((m) => !KEYWORDS.has(m[0]));
  if (ids.length > 0) {
    const m = rng.pick(ids);
    return line.slice(0, m.index) + `${m[0]}Next` + line.slice(m.index! + m[0].length);
  }
  return line.trim() === '' ? line : `${line.replace(/\s+$/, '')} ${'/* v2 */'}`;
}

function bodyRewrite(c: Ctx): Hunk[] | null {
  const span = c.hi - c.lo + 1;
  const len = c.rng.int(2, Math.min(12, span));
  const start = c.rng.int(c.lo, c.hi - len + 1);
  const old = c.lines.slice(start, start + len);
  if (old.every((l) => l.trim() === '')) return null;
  const rows = old.map((l, k) => (l.trim() !== '' && c.rng.chance(0.5) ? rewriteLine(l, c.rng, k) : l));
  const at = c.rng.int(0, rows.length);
  rows.splice(at, 0, indentFor(c.lines, start + at, c.lo, c.hi) + statement(c.lang, c.t.fn.name, at));
  if (c.rng.chance(0.3) && rows.length > 3) rows.splice(c.rng.int(0, rows.length - 1), 1);
  if (rows.join('\n') === old.join('\n')) return null;
  return [{ start, end: start + len, rows }];
}

function insertion(c: Ctx): Hunk[] | null {
  // after a body line that is not the function's last: gap in lo+1..hi
  const gap = c.rng.int(c.lo + 1, c.hi);
  const indent = indentFor(c.lines, gap, c.lo, c.hi);
  const n = c.rng.int(1, 3);
  const rows = Array.from({ length: n }, (_, k) => indent + (k === 0 && n > 1 ? `${COMMENT[c.lang]} trace ${c.t.fn.name}` : statement(c.lang, c.t.fn.name, k)));
  return [{ start: gap, end: gap, rows }];
}

function deletion(c: Ctx): Hunk[] | null {
  const len = c.rng.int(1, Math.min(3, c.hi - c.lo + 1));
  const start = c.rng.int(c.lo, c.hi - len + 1);
  if (c.lines.slice(start, start + len).every((l) => l.trim() === '')) return null;
  return [{ start, end: start + len, rows: [] }];
}

const DECLARATION: Record<Lang, RegExp> = {
  javascript: /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/,
  typescript: /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*[:=]/,
  python: /^\s*([a-z_][a-z0-9_]*)\s*=[^=]/,
  go: /\b([a-zA-Z_]\w*)\s*:=/,
  rust: /\blet\s+(?:mut\s+)?([a-z_]\w*)\b/,
  c: /\b(?:int|char|long|size_t|unsigned|double|float|short)\s+\**([a-zA-Z_]\w*)\s*[=;[]/,
};

function renameLocal(c: Ctx): Hunk[] | null {
  const names = new Set<string>();
  for (let i = c.lo; i <= c.hi; i++) {
    const m = DECLARATION[c.lang].exec(c.lines[i]!);
    if (m && m[1]!.length >= 2 && !KEYWORDS.has(m[1]!)) names.add(m[1]!);
  }
  const all = c.lines.join('\n');
  for (const name of c.rng.shuffle([...names])) {
    const src = `(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`;
    const hit = new RegExp(src);
    const all = new RegExp(src, 'g');
    const fresh = `${name}Renamed`;
    if (c.lines.some((l) => l.includes(fresh))) continue;
    // the local must not appear outside the editable lines of the function (a parameter, a shadow, a decorator)
    let outside = false;
    for (let i = c.t.fn.start; i <= c.t.fn.end; i++) if ((i < c.lo || i > c.hi) && hit.test(c.lines[i]!)) outside = true;
    if (outside) continue;
    const hunks: Hunk[] = [];
    let uses = 0;
    for (let i = c.lo; i <= c.hi; i++) {
      const line = c.lines[i]!;
      if (!hit.test(line)) continue;
      uses++;
      const row = line.replace(all, fresh);
      const prev = hunks[hunks.length - 1];
      if (prev && prev.end === i) hunks[hunks.length - 1] = { start: prev.start, end: i + 1, rows: [...prev.rows, row] };
      else hunks.push({ start: i, end: i + 1, rows: [row] });
    }
    if (uses >= 2) return hunks;
  }
  return null;
}

function blockMove(c: Ctx): Hunk[] | null {
  if (c.hi - c.lo < 3) return null;
  const len = c.rng.int(1, Math.min(3, c.hi - c.lo - 1));
  const start = c.rng.int(c.lo, c.hi - len + 1);
  const moved = c.lines.slice(start, start + len);
  if (moved.every((l) => l.trim() === '')) return null;
  // a gap at most 8 lines away, outside start..start+len, inside lo+1..hi
  const gaps: number[] = [];
  for (let g = Math.max(c.lo + 1, start - 8); g <= Math.min(c.hi, start + len + 8); g++) if (g < start || g > start + len) gaps.push(g);
  if (gaps.length === 0) return null;
  const gap = c.rng.pick(gaps);
  const del: Hunk = { start, end: start + len, rows: [] };
  const ins: Hunk = { start: gap, end: gap, rows: moved };
  return gap < start ? [ins, del] : [del, ins];
}

const MAKERS: Record<EditKind, (c: Ctx) => Hunk[] | null> = {
  'body-rewrite': bodyRewrite,
  insertion,
  deletion,
  'rename-local': renameLocal,
  'block-move': blockMove,
};

/** An edit of `kind` inside the target's function, or of the next kind that fits; null when none does. */
export function makeEdit(t: Target, kind: EditKind, rng: Rng): AbstractEdit | null {
  const c: Ctx = { lines: t.file.lines, lang: t.file.lang, t, rng, lo: t.fn.def + 1, hi: t.fn.end - 1 };
  if (c.hi - c.lo < 1) return null;
  const first = EDIT_KINDS.indexOf(kind);
  for (let k = 0; k < EDIT_KINDS.length; k++) {
    const kk = EDIT_KINDS[(first + k) % EDIT_KINDS.length]!;
    for (let attempt = 0; attempt < 4; attempt++) {
      const hunks = MAKERS[kk](c);
      if (hunks) return { kind: kk, hunks };
    }
  }
  return null;
}

/** The 0-based lines an edit reads or touches: replaced lines, and for an insertion the lines on both sides of its gap. */
export function editZone(edit: AbstractEdit): { lo: number; hi: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const h of edit.hunks) {
    lo = Math.min(lo, h.start === h.end ? h.start - 1 : h.start);
    hi = Math.max(hi, h.start === h.end ? h.start : h.end - 1);
  }
  return { lo, hi };
}
