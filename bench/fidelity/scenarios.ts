// What happens to a file between an agent's read and its edit, and what the file must then be.
// Each scenario builds, for one target and edit: the file as first written, the change made
// between read and edit (bytes written by someone else, an earlier edit of the same session, or a
// second session editing at the same time), and the intended results from the oracle, for an edit
// answered as applied and for one answered as refused.

import { docOfLines, indentOf, type Doc } from './doc.js';
import { collidingLine, tagOf } from './collide.js';
import type { Target } from './corpus.js';
import { commentPrefix, editZone, inlineComment, statement } from './edits.js';
import { expectOf, intended, itemsOf, mutations, type AbstractEdit, type Expect, type Mutation } from './oracle.js';
import type { Block } from './quote.js';
import type { Rng } from './rng.js';
import { parsesWorse } from './syntax.js';

export type Between =
  | { readonly kind: 'none' }
  | { readonly kind: 'external'; readonly live: Doc }
  | { readonly kind: 'prior'; readonly edit: AbstractEdit }
  | { readonly kind: 'concurrent'; readonly edit: AbstractEdit };

export interface Case {
  readonly initial: Doc;
  readonly between: Between;
  /** The quote the agent sends instead of its own (lines [lo, hi) of the file it was taken from). */
  readonly quote?: { readonly lo: number; readonly hi: number; readonly block: Block };
  /** Intended results when our edit is answered as applied (none: it must be refused). */
  ok(otherApplied: boolean): Expect[];
  /** What the file must be when our edit is refused. */
  refused(otherApplied: boolean): Expect[];
}

export interface ScenarioInput {
  readonly target: Target;
  readonly edit: AbstractEdit;
  readonly rng: Rng;
  /** The task's index (alternates directions of some scenarios). */
  readonly index: number;
}

export interface Scenario {
  readonly id: string;
  readonly title: string;
  /** True when the file changes between read and edit (a correct result is then a merge). */
  readonly changes: boolean;
  /** The scenario hands the agent a quote: it runs only for families that place edits by text. */
  readonly quoted?: boolean;
  /** The refusal the scenario calls for (an error code), when any placement would be wrong. */
  readonly refusal?: string;
  build(input: ScenarioInput): Case | null;
}

const OURS = (edit: AbstractEdit) => ({ edit, label: 'ours' });
const buf = (s: string) => Buffer.from(s, 'utf8');

function plain(t: Target): Doc {
  return docOfLines(t.file.lines);
}

function nonNull(xs: Array<Expect | null>): Expect[] {
  return xs.filter((x): x is Expect => x !== null);
}

/** A scenario where someone else's bytes change the file between read and edit. */
function external(initial: Doc, edit: AbstractEdit, m: Mutation): Case {
  const base = itemsOf(initial);
  const live = m(base);
  return {
    initial,
    between: { kind: 'external', live: { bom: live.bom, eol: live.eol, finalNewline: live.finalNewline, lines: live.items.map((i) => i.text) } },
    ok: () => nonNull([intended(base, [OURS(edit)], m)]),
    refused: () => [expectOf(live)],
  };
}

/** A fresh edit of a file as first written. */
function fresh(initial: Doc, edit: AbstractEdit): Case {
  const base = itemsOf(initial);
  return { initial, between: { kind: 'none' }, ok: () => nonNull([intended(base, [OURS(edit)])]), refused: () => [expectOf(base)] };
}

/** 0-based lines at least `gap` lines away from the edit's zone. */
function awayFrom(t: Target, edit: AbstractEdit, gap: number): number[] {
  const z = editZone(edit);
  const out: number[] = [];
  for (let i = 0; i < t.file.lines.length; i++) if (i < z.lo - gap || i > z.hi + gap) out.push(i);
  return out;
}

/** A line of text someone else might add: a comment, a blank line, or a copy of a line of the file. */
function driftRow(t: Target, rng: Rng, k: number): string {
  const r = rng.next();
  if (r < 0.4) return `${commentPrefix(t.file.lang)} note ${k}: reviewed`;
  if (r < 0.55) return '';
  return rng.pick(t.file.lines);
}

/** A drift well away from the edit: lines inserted, deleted or replaced (same length or not). */
function driftAway(t: Target, edit: AbstractEdit, rng: Rng): Mutation | null {
  const lines = awayFrom(t, edit, 2);
  if (lines.length === 0) return null;
  const z = editZone(edit);
  const k = rng.pick(lines);
  const op = rng.int(0, 2);
  if (op === 0) {
    // insertion before line k: the gap k-1|k must be clear of the zone and its neighbours
    if (k >= z.lo - 2 && k <= z.hi + 3) return null;
    const rows = Array.from({ length: rng.int(1, 4) }, (_, i) => buf(driftRow(t, rng, i)));
    return mutations.insertBefore(k, rows);
  }
  let count = rng.int(1, 3);
  while (count > 1 && !lines.includes(k + count - 1)) count--;
  if (k + count - 1 >= z.lo - 2 && k <= z.hi + 2) return null;
  const rows = op === 1 ? [] : Array.from({ length: rng.int(1, 3) }, (_, i) => buf(driftRow(t, rng, i)));
  return mutations.replaceOrig(k, count, rows);
}

/** Lines the edit replaces, or for a pure insertion the line above its gap. */
function editedLines(edit: AbstractEdit): number[] {
  const out: number[] = [];
  for (const h of edit.hunks) {
    if (h.start === h.end) out.push(h.start - 1);
    else for (let i = h.start; i < h.end; i++) out.push(i);
  }
  return out;
}

function changedLine(t: Target, line: string): string {
  if (line.trim() === '') return `${indentOf(line)}${commentPrefix(t.file.lang)} changed here`;
  const c = inlineComment(t.file.lang);
  return `${line}${c.open}changed${c.close}`;
}

function retry<T>(n: number, f: () => T | null): T | null {
  for (let i = 0; i < n; i++) {
    const x = f();
    if (x !== null) return x;
  }
  return null;
}

const reindent = (b: Buffer): Buffer => {
  const s = b.toString('utf8');
  const ind = indentOf(s);
  return ind === '' ? b : buf(ind.replace(/\t/g, '    ').replace(/ /g, '  ') + s.slice(ind.length));
};

/** A cp1252 byte (0x99, "™") inside a comment. */
function withCp1252(line: Buffer, t: Target): Buffer {
  const c = inlineComment(t.file.lang);
  return Buffer.concat([line, buf(`${c.open}(c) Example`), Buffer.from([0x99]), buf(` Corp${c.close}`)]);
}

export const SCENARIOS: readonly Scenario[] = [
  { id: 'fresh', title: 'fresh (nothing changed)', changes: false, build: ({ target, edit }) => fresh(plain(target), edit) },
  {
    id: 'drift-elsewhere',
    title: 'drift elsewhere (lines inserted, deleted or replaced away from the edit)',
    changes: true,
    build: ({ target, edit, rng }) => {
      const m = retry(20, () => driftAway(target, edit, rng));
      return m ? external(plain(target), edit, m) : null;
    },
  },
  {
    id: 'drift-same-lines',
    title: 'drift on the same lines',
    changes: true,
    build: ({ target, edit, rng }) => {
      const k = rng.pick(editedLines(edit));
      return external(plain(target), edit, mutations.replaceOrig(k, 1, [buf(changedLine(target, target.file.lines[k]!))]));
    },
  },
  {
    id: 'collision-same-lines',
    title: 'tag collision: an edited line changed, same tag',
    changes: true,
    build: ({ target, edit, rng }) => {
      const lines = target.file.lines;
      const nonBlank = editedLines(edit).filter((i) => lines[i]!.trim() !== '');
      const k = rng.pick(nonBlank.length > 0 ? nonBlank : editedLines(edit));
      const line = collidingLine(lines, true, k, inlineComment(target.file.lang), tagOf(`${lines.join('\n')}\n`));
      return line === null ? null : external(plain(target), edit, mutations.replaceOrig(k, 1, [buf(line)]));
    },
  },
  {
    id: 'collision-elsewhere',
    title: 'tag collision: a line elsewhere changed, same tag',
    changes: true,
    build: ({ target, edit, rng }) => {
      const lines = target.file.lines;
      const away = awayFrom(target, edit, 2).filter((i) => lines[i]!.trim() !== '');
      if (away.length === 0) return null;
      const k = rng.pick(away);
      const line = collidingLine(lines, true, k, inlineComment(target.file.lang), tagOf(`${lines.join('\n')}\n`));
      return line === null ? null : external(plain(target), edit, mutations.replaceOrig(k, 1, [buf(line)]));
    },
  },
  {
    id: 'session-chain',
    title: 'a prior edit of the same session moved the lines',
    changes: true,
    build: ({ target, edit, rng }) => {
      const fn = target.fn;
      const lang = target.file.lang;
      const initial = plain(target);
      const base = itemsOf(initial);
      const prior = retry<AbstractEdit>(20, () => {
        const r = rng.int(0, 2);
        let p: AbstractEdit;
        if (r === 0) {
          const rows = Array.from({ length: rng.int(1, 3) }, (_, i) => `${indentOf(target.file.lines[fn.start]!)}${commentPrefix(lang)} ${fn.name}: note ${i}`);
          p = { kind: 'insertion', hunks: [{ start: fn.start, end: fn.start, rows }] };
        } else {
          const k = rng.int(fn.def + 1, fn.end - 1);
          const line = target.file.lines[k]!;
          p = r === 1
            ? { kind: 'body-rewrite', hunks: [{ start: k, end: k + 1, rows: [line, `${indentOf(line)}${statement(lang, fn.name, 99)}`] }] }
            : { kind: 'deletion', hunks: [{ start: k, end: k + 1, rows: [] }] };
        }
        return intended(base, [{ edit: p, label: 'prior' }, OURS(edit)]) === null ? null : p;
      });
      if (!prior) return null;
      return {
        initial,
        between: { kind: 'prior', edit: prior },
        ok: () => nonNull([intended(base, [{ edit: prior, label: 'prior' }, OURS(edit)])]),
        refused: () => nonNull([intended(base, [{ edit: prior, label: 'prior' }])]),
      };
    },
  },
  {
    id: 'formatter-reindent',
    title: 'formatter: re-indent (leading spaces doubled, tabs to 4 spaces)',
    changes: true,
    build: ({ target, edit }) => external(plain(target), edit, mutations.mapLines(reindent, true)),
  },
  {
    id: 'formatter-trailing',
    title: 'formatter: trailing spaces trimmed',
    changes: true,
    build: ({ target, edit }) => {
      const lines = target.file.lines.map((l, i) => (i % 3 === 1 && l.trim() !== '' ? `${l} ` : l));
      if (lines.every((l, i) => l === target.file.lines[i])) return null;
      const rebuilt: Target = { ...target, file: { ...target.file, lines } };
      return external(plain(rebuilt), edit, mutations.mapLines((b) => buf(b.toString('utf8').replace(/[ \t]+$/, '')), false));
    },
  },
  {
    id: 'formatter-eol',
    title: 'formatter: line endings switched (LF to CRLF, CRLF to LF)',
    changes: true,
    build: ({ target, edit, index }) => {
      const lf = plain(target);
      const initial: Doc = index % 2 === 0 ? lf : { ...lf, eol: '\r\n' };
      return external(initial, edit, mutations.setEol(index % 2 === 0 ? '\r\n' : '\n'));
    },
  },
  {
    id: 'moved-block',
    title: 'the edited function moved elsewhere in the file',
    changes: true,
    build: ({ target, edit, rng }) => {
      const fn = target.fn;
      const n = target.file.lines.length;
      const dests: Array<number | null> = target.others
        .filter((o) => (o.end < fn.start || o.start > fn.end) && (o.start < fn.start - 2 || o.start > fn.end + 3))
        .map((o) => o.start);
      if (fn.end < n - 3) dests.push(null);
      if (dests.length === 0) return null;
      return external(plain(target), edit, mutations.moveRegion(fn.start, fn.end, rng.pick(dests)));
    },
  },
  {
    id: 'copy-above',
    title: 'a copy of the edited function pasted above it',
    changes: true,
    build: ({ target, edit, rng }) => {
      const fn = target.fn;
      const dests = target.others.filter((o) => o.end < fn.start - 1 && o.start < fn.start - 2).map((o) => o.start);
      if (fn.start >= 2) dests.push(0);
      if (dests.length === 0) return null;
      const copy = [...target.file.lines.slice(fn.start, fn.end + 1), ''].map(buf);
      return external(plain(target), edit, mutations.insertBefore(rng.pick(dests), copy, 'copy'));
    },
  },
  {
    id: 'second-session',
    title: 'a second session edits the same file at the same time',
    changes: true,
    build: ({ target, edit, rng }) => {
      const initial = plain(target);
      const base = itemsOf(initial);
      const z = editZone(edit);
      const lines = awayFrom(target, edit, 2).filter((i) => i < z.lo - 3 || i > z.hi + 3);
      if (lines.length === 0) return null;
      const k = rng.pick(lines);
      const line = target.file.lines[k]!;
      const other: AbstractEdit = rng.chance(0.5)
        ? { kind: 'insertion', hunks: [{ start: k, end: k, rows: [`${indentOf(line)}${commentPrefix(target.file.lang)} added by another session`] }] }
        : { kind: 'body-rewrite', hunks: [{ start: k, end: k + 1, rows: [changedLine(target, line)] }] };
      const both = (otherApplied: boolean, ours: boolean) =>
        intended(base, [...(otherApplied ? [{ edit: other, label: 'other' }] : []), ...(ours ? [OURS(edit)] : [])]);
      return {
        initial,
        between: { kind: 'concurrent', edit: other },
        ok: (o) => nonNull([both(o, true)]),
        refused: (o) => nonNull([both(o, false)]),
      };
    },
  },
  { id: 'file-crlf', title: 'a CRLF file', changes: false, build: ({ target, edit }) => fresh({ ...plain(target), eol: '\r\n' }, edit) },
  { id: 'file-bom', title: 'a file with a UTF-8 BOM', changes: false, build: ({ target, edit }) => fresh({ ...plain(target), bom: true }, edit) },
  {
    id: 'file-cp1252',
    title: 'a cp1252 byte elsewhere in the file',
    changes: false,
    build: ({ target, edit, rng }) => {
      const away = awayFrom(target, edit, 3).filter((i) => target.file.lines[i]!.trim() !== '');
      if (away.length === 0) return null;
      // the comment holding the byte must not change the syntax (appended inside a block comment,
      // its end would close that comment): the scenario is about an encoding, not a syntax error
      const c = inlineComment(target.file.lang);
      const asText = (k: number) => target.file.lines.map((l, i) => (i === k ? `${l}${c.open}(c) Example\uFFFD Corp${c.close}` : l)).join('\n');
      const k = retry(20, () => {
        const at = rng.pick(away);
        return parsesWorse(target, `${asText(at)}\n`) ? null : at;
      });
      if (k === null) return null;
      const doc = plain(target);
      return fresh({ ...doc, lines: doc.lines.map((l, i) => (i === k ? withCp1252(l, target) : l)) }, edit);
    },
  },
  {
    id: 'file-no-eol',
    title: 'a file without a final newline',
    changes: false,
    // (a file whose last line is empty would only lose that empty line)
    build: ({ target, edit }) => (target.file.lines[target.file.lines.length - 1]!.trim() === '' ? null : fresh({ ...plain(target), finalNewline: false }, edit)),
  },
];

