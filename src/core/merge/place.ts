// Moves the hunks of a stale edit, planned on the text the agent read, onto the live text. Each
// hunk has a window: the lines it replaces, or the two lines around its insertion point, plus
// `margin` unchanged lines on each side (the file's start and end count as lines). The window is
// placed where its text, compared without outer blanks, now sits, as anchor.ts decides (one place,
// unambiguous, or none): shifted by drift above it, or moved with its block. When the lines there
// are the same exactly, the rows go in as sent; when only their whitespace changed (a formatter
// re-indented, trimmed trailing blanks) and the exact text of the anchor lines sits nowhere else,
// the rows are re-indented the way the window's lines were (indent.ts; a rule needs two lines, and
// the lines whose text the read text holds at one indentation only must show it by themselves), or
// go in as sent when only trailing blanks changed. When the whole file was re-indented line for line
// by one rule (whole-reindent.ts), no place is searched: each hunk stays at its lines, its rows
// re-indented by that rule.
// With margin 0 (the session's own earlier edit changed the text) a replaced range needs only its own
// lines; an insertion always needs the line on each side of it (next to a changed line, "after line
// N" and "before the line that followed N" are no longer the same place). A hunk that cannot be
// placed, or placed hunks that now meet, fail with a reason.

import { HashlineError } from '../errors/errors.js';
import type { Hunk } from '../edit/ops.js';
import { checkConflicts } from '../edit/plan.js';
import { LineIndex, placeWindow, type Window } from './anchor.js';
import { leading, learnReindent, type IndentPair } from './indent.js';
import { wholeFileReindent } from './whole-reindent.js';

export type HunkNote =
  | { readonly kind: 'in-place' }
  /** Re-anchored by its text: `from` (1-based, as read) now starts at `to`. */
  | { readonly kind: 'moved'; readonly from: number; readonly to: number }
  /** Placed by text without outer blanks; rows re-indented (or not). */
  | { readonly kind: 'whitespace'; readonly at: number; readonly reindented: boolean };

export type FailReason = 'absent' | 'ambiguous' | 'whitespace' | 'overlap';

export interface HunkFailure {
  readonly hunk: Hunk;
  readonly reason: FailReason;
  readonly window: Window;
  /** For `ambiguous`: the lines whose text is repeated, and the 1-based live lines where that text sits. */
  readonly core?: Window;
  readonly places?: readonly number[];
}

export type Placed = { readonly ok: true; readonly hunks: Hunk[]; readonly notes: HunkNote[] } | { readonly ok: false; readonly failures: HunkFailure[] };

/**
 * What identifies a hunk's place: the lines it replaces, or for an insertion the line on each side
 * of it, each placed on its own (0-based; -1 and length are the file's boundaries).
 */
export function coresOf(h: Hunk): Window[] | null {
  switch (h.kind) {
    case 'head':
    case 'tail':
      return null;
    case 'range':
      return [{ lo: h.start - 1, hi: h.end - 1 }];
    case 'after':
      return [{ lo: h.line - 1, hi: h.line - 1 }, { lo: h.line, hi: h.line }];
    case 'before':
      return [{ lo: h.line - 2, hi: h.line - 2 }, { lo: h.line - 1, hi: h.line - 1 }];
  }
}

/** The window of a hunk (0-based lines of the read text; -1 and length are the boundaries). */
export function windowOf(h: Hunk, margin: number): Window | null {
  switch (h.kind) {
    case 'head':
    case 'tail':
      return null;
    case 'range':
      return { lo: h.start - 1 - margin, hi: h.end - 1 + margin };
    // an insertion point is defined by the lines on both sides: it keeps at least one of each
    case 'after':
      return { lo: h.line - Math.max(1, margin), hi: h.line - 1 + Math.max(1, margin) };
    case 'before':
      return { lo: h.line - 1 - Math.max(1, margin), hi: h.line - 2 + Math.max(1, margin) };
  }
}

function shifted(h: Hunk, d: number, rows?: readonly string[]): Hunk {
  const r = rows ?? ('rows' in h ? h.rows : []);
  switch (h.kind) {
    case 'range':
      return { ...h, start: h.start + d, end: h.end + d, rows: r };
    case 'before':
    case 'after':
      return { ...h, line: h.line + d, rows: r };
    default:
      return h;
  }
}

const trimmed = (lines: readonly string[]) => lines.map((l) => l.trim());

/** True when every line of the window (boundaries included) agrees with the live lines at shift d. */
function marginHolds(readKeys: readonly string[], liveKeys: readonly string[], w: Window, d: number): boolean {
  for (let i = w.lo; i <= w.hi; i++) {
    const j = i + d;
    if (i < 0 || i >= readKeys.length) {
      if (j !== (i < 0 ? -1 : liveKeys.length)) return false;
    } else if (j < 0 || j >= liveKeys.length || readKeys[i] !== liveKeys[j]) return false;
  }
  return true;
}

/** Indentation pairs (as read → now) of non-blank lines lo..hi of the read text at shift d, those of `sure` lines only when given. */
function pairs(read: readonly string[], live: readonly string[], lo: number, hi: number, d: number, sure?: (line: string) => boolean): IndentPair[] {
  const out: IndentPair[] = [];
  for (let i = Math.max(0, lo); i <= Math.min(read.length - 1, hi); i++) {
    const a = read[i]!;
    const b = live[i + d];
    if (b === undefined || a.trim() === '' || (sure && !sure(a))) continue;
    out.push({ from: leading(a), to: leading(b) });
  }
  return out;
}

/**
 * A test for read lines whose text, without outer blanks, the read text holds at one indentation
 * only. Any other line was placed by text that another read line has at another indentation, and
 * the line there now may be that other one, re-indented another way.
 */
function soleIndent(read: readonly string[]): (line: string) => boolean {
  const indent = new Map<string, string | null>();
  for (const line of read) {
    const key = line.trim();
    const ind = leading(line);
    const known = indent.get(key);
    indent.set(key, known === undefined || known === ind ? ind : null);
  }
  return (line) => indent.get(line.trim()) === leading(line);
}

/**
 * Rows re-indented the way the window's lines were, or null when no single rule explains them. A
 * rule other than "unchanged" must rest on at least two lines (one line fits any shift), and the
 * lines that are surely the ones read must show a re-indentation by themselves and give the rows
 * the same indentation (else a line matched to another copy of its text could be what set it).
 */
function reindentRows(read: readonly string[], live: readonly string[], w: Window, d: number, rows: readonly string[], sure: (line: string) => boolean): { rows: readonly string[]; reindented: boolean } | null {
  const seen = pairs(read, live, w.lo, w.hi, d);
  const rule = learnReindent(seen);
  if (rule.kind === 'unchanged') return { rows, reindented: false };
  const firm = learnReindent(pairs(read, live, w.lo, w.hi, d, sure));
  if (rule.kind === 'none' || seen.length < 2 || firm.kind !== 'reindented') return null;
  const out = rule.rows(rows);
  const again = firm.rows(rows);
  if (out === null || again === null || out.some((row, i) => row !== again[i])) return null;
  return { rows: out, reindented: out.some((row, i) => row !== rows[i]) };
}

export interface PlaceInput {
  readonly read: readonly string[];
  readonly live: readonly string[];
  readonly margin: number;
  /** The read → live map of a line diff, when one was cheap enough (tells a move from a shift). */
  readonly map: Int32Array | null;
}

/** Places every hunk, or says for each hunk that cannot be placed why. */
export function placeHunks(hunks: readonly Hunk[], input: PlaceInput): Placed {
  const { read, live, margin, map } = input;
  const readKeys = trimmed(read);
  const liveKeys = trimmed(live);
  const loose = { read: new LineIndex(readKeys), live: new LineIndex(liveKeys) };
  let exact: { read: LineIndex; live: LineIndex } | undefined;
  let sure: ((line: string) => boolean) | undefined;
  const out: Hunk[] = [];
  const notes: HunkNote[] = [];
  const failures: HunkFailure[] = [];
  const placesOf = (w: Window, shifts: readonly number[]) => shifts.map((d) => Math.max(0, w.lo) + d + 1);
  // a formatter pass over the whole file, line for line: each read line is the live line at its number
  const whole = wholeFileReindent(read, live);
  for (const h of hunks) {
    const w = windowOf(h, margin);
    if (w === null) {
      out.push(h);
      continue;
    }
    if (whole !== null) {
      const rows = 'rows' in h ? h.rows : [];
      const again = whole.rows(rows);
      if (again === null) failures.push({ hunk: h, reason: 'whitespace', window: w });
      else {
        out.push(shifted(h, 0, again));
        notes.push({ kind: 'whitespace', at: Math.max(0, w.lo) + 1, reindented: again.some((row, i) => row !== rows[i]) });
      }
      continue;
    }
    // The place is found on the lines without their outer blanks, so that a formatter that turned
    // one block's indentation into another's cannot make that other block the only exact match;
    // each side of an insertion must be found, and found next to the other.
    let d: number | undefined;
    let failed: HunkFailure | undefined;
    for (const core of coresOf(h)!) {
      const byShape = placeWindow(readKeys, loose.read, liveKeys, loose.live, core);
      if (byShape.kind !== 'placed') {
        failed = { hunk: h, reason: byShape.kind, window: w, ...(byShape.kind === 'ambiguous' ? { core, places: placesOf(core, byShape.shifts) } : {}) };
        break;
      }
      if (d !== undefined && d !== byShape.shift) {
        failed = { hunk: h, reason: 'absent', window: w };
        break;
      }
      d = byShape.shift;
    }
    if (failed === undefined && !marginHolds(readKeys, liveKeys, w, d!)) failed = { hunk: h, reason: 'absent', window: w };
    if (failed !== undefined || d === undefined) {
      failures.push(failed ?? { hunk: h, reason: 'absent', window: w });
      continue;
    }
    const first = Math.max(0, w.lo);
    const last = Math.min(read.length - 1, w.hi);
    let same = true;
    for (let i = first; i <= last && same; i++) same = read[i] === live[i + d];
    if (!same) {
      // the exact text of what the edit is anchored on must not sit anywhere else: a line that
      // only looks the same without its indentation may be another line (a `}` of another block)
      exact ??= { read: new LineIndex(read), live: new LineIndex(live) };
      let elsewhere: number[] = [];
      // (the first place listed is the one found without outer blanks)
      for (const core of coresOf(h)!) {
        const c0 = Math.max(0, core.lo);
        const c1 = Math.min(read.length - 1, core.hi);
        let differs = false;
        for (let i = c0; i <= c1 && !differs; i++) differs = read[i] !== live[i + d];
        if (!differs) continue;
        const byText = placeWindow(read, exact.read, live, exact.live, core);
        if (byText.kind !== 'absent') elsewhere = [...elsewhere, ...placesOf(core, [d, ...(byText.kind === 'placed' ? [byText.shift] : byText.shifts)])];
        if (elsewhere.length > 0) {
          failures.push({ hunk: h, reason: 'ambiguous', window: w, core, places: elsewhere });
          break;
        }
      }
      if (elsewhere.length > 0) continue;
      const rows = 'rows' in h ? h.rows : [];
      sure ??= soleIndent(read);
      const re = reindentRows(read, live, w, d, rows, sure);
      if (re === null) {
        failures.push({ hunk: h, reason: 'whitespace', window: w });
        continue;
      }
      out.push(shifted(h, d, re.rows));
      notes.push({ kind: 'whitespace', at: first + d + 1, reindented: re.reindented });
      continue;
    }
    const inSequence = map !== null && first < map.length && map[first] === first + d;
    out.push(shifted(h, d));
    notes.push(inSequence || d === 0 ? { kind: 'in-place' } : { kind: 'moved', from: first + 1, to: first + 1 + d });
  }
  if (failures.length > 0) return { ok: false, failures };
  try {
    checkConflicts(out);
  } catch (e) {
    if (e instanceof HashlineError && e.code === 'edit_overlap') {
      return { ok: false, failures: hunks.map((h) => ({ hunk: h, reason: 'overlap' as const, window: windowOf(h, margin) ?? { lo: 0, hi: 0 } })) };
    }
    throw e;
  }
  return { ok: true, hunks: out, notes };
}
