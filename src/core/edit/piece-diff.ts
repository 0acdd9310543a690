// The unified diff of an edit, read off its pieces instead of recomputed by a text diff: the
// pieces already say which old lines were kept, so one linear pass gives the change regions (a
// generic line diff of 10^4 lines with 1,000 changes costs about a second; this costs a few ms).
// The layout follows jsdiff's structuredPatch with 3 context lines (regions closer than 2×context
// share a hunk; removals before additions; `\ No newline at end of file` after an unterminated line).
// The long runs of kept lines (a line copied to its own place, unchanged), at the ends and between
// changes, are left out of the pass but for the context they give: a few changed lines in a long
// file cost a few lines each, and one plain loop over the pieces.

import { displayText } from '../text/text-codec.js';
import { DIFF_CONTEXT_LINES } from '../text/unified-diff.js';
import type { Piece } from './ops.js';

export interface DiffSide {
  readonly lines: readonly string[];
  /** The last line ends with a line terminator. */
  readonly finalNewline: boolean;
}

export interface PieceDiff {
  /** The unified diff, or undefined when nothing changed. */
  readonly diff: string | undefined;
  /** 1-based line of the edited file where the first change is. */
  readonly firstChangedLine: number | undefined;
}

const EQ = 0;
const DEL = 1;
const ADD = 2;
const NO_NEWLINE = '\\ No newline at end of file';

/**
 * Where a window of two texts starts in each (0-based lines) and how many lines the whole new text
 * has: the diff of the window is numbered as the diff of the whole texts.
 */
export interface DiffWindow {
  readonly oldStart: number;
  readonly newStart: number;
  readonly newTotal: number;
  /** A part of the texts between two left-out runs: whether the whole texts are alike was checked before. */
  readonly part?: boolean;
}

function sameTexts(before: DiffSide, after: DiffSide): boolean {
  if (before.finalNewline !== after.finalNewline || before.lines.length !== after.lines.length) return false;
  for (let i = 0; i < before.lines.length; i++) if (before.lines[i] !== after.lines[i]) return false;
  return true;
}

/** Unified diff of `before` → `after`, where `after` is `pieces` of `before` materialized. */
export function pieceDiff(path: string, before: DiffSide, pieces: readonly Piece[], after: DiffSide, context = DIFF_CONTEXT_LINES): PieceDiff {
  return diffOf(path, before, pieces, after, context, true);
}

/** pieceDiff without leaving out the kept ends: one pass over the whole texts (the test that pins both alike uses it). */
export function pieceDiffWhole(path: string, before: DiffSide, pieces: readonly Piece[], after: DiffSide, context = DIFF_CONTEXT_LINES): PieceDiff {
  return diffOf(path, before, pieces, after, context, false);
}

function diffOf(path: string, before: DiffSide, pieces: readonly Piece[], after: DiffSide, context: number, window: boolean): PieceDiff {
  // An empty last line without a terminator is no line: the text just ends with a newline (and
  // materialize drops it, so `after` may already lack it while `pieces` still has it).
  const lastNew = after.lines.length - 1;
  if (lastNew >= 0 && after.lines[lastNew] === '' && !after.finalNewline && pieces.length === after.lines.length) {
    return diffOf(path, before, pieces.slice(0, -1), { lines: after.lines.slice(0, -1), finalNewline: true }, context, window);
  }
  const lastPiece = pieces[pieces.length - 1];
  if (pieces.length === after.lines.length + 1 && lastPiece !== undefined && ('text' in lastPiece ? lastPiece.text : before.lines[lastPiece.src]) === '') {
    return diffOf(path, before, pieces.slice(0, -1), { lines: after.lines, finalNewline: true }, context, window);
  }
  return (window ? windowed(path, before, pieces, after, context) : undefined) ?? diffPass(path, before, pieces, after, context);
}

/**
 * pieceDiff cut at the long runs of kept lines (a line copied to its own place, unchanged, after
 * the line before it): the pass runs on each part between two such runs, with `context` + 1 kept
 * lines each side, and the parts' hunks are joined. Undefined when no run is long enough to leave
 * out at least half of the lines, or a piece of a part copies a line outside it. The pass over the
 * whole texts makes the same entries in each part (each kept line of a run after its first is an
 * equal line, with nothing pending) and no hunk across a run (longer than 2×context), so the same diff.
 */
function windowed(path: string, before: DiffSide, pieces: readonly Piece[], after: DiffSide, context: number): PieceDiff | undefined {
  const na = before.lines.length;
  const nb = after.lines.length;
  if (pieces.length !== nb) return undefined;
  const oldLines = before.lines;
  const newLines = after.lines;
  const margin = context + 1;
  // the parts as [newFrom, newTo) with the old lines [oldFrom, oldTo) they map to; one plain loop
  // (this runs once per edit, mostly before the JIT has compiled it: no closure per line)
  const cuts: number[] = [];
  let partNew = 0;
  let partOld = 0;
  let skipped = 0;
  let runStart = -1; // new index of the first line of the current run of kept lines, -1: none
  let runSrc = 0;
  for (let k = 0; k <= nb; k++) {
    // a kept line (the last lines of both texts are left to the pass: their terminators may
    // differ); the first line only when it is the old first line (nothing deleted before it)
    let src = -1;
    if (k < nb - 1) {
      const p = pieces[k]!;
      if ('src' in p && p.src < na - 1 && oldLines[p.src] === newLines[k] && (k > 0 || p.src === 0)) src = p.src;
    }
    if (runStart >= 0 && src >= 0 && src === runSrc + (k - runStart)) continue;
    if (runStart >= 0) {
      // the run of new lines [runStart, k) is old lines from runSrc on; its first line may close a
      // pending change: it stays in the part before (the file's head needs no context before it)
      const lo = runStart === 0 ? 0 : runStart + margin;
      const hi = k - margin;
      if (hi - lo >= margin) {
        cuts.push(partNew, lo, partOld, runSrc + (lo - runStart));
        skipped += hi - lo;
        partNew = hi;
        partOld = runSrc + (hi - runStart);
      }
    }
    runStart = src >= 0 ? k : -1;
    runSrc = src;
  }
  cuts.push(partNew, nb, partOld, na);
  // worth it when it leaves out at least half of the lines (the slices are a pass of their own)
  if (skipped < 2 * margin || 2 * skipped < Math.max(na, nb)) return undefined;
  // the texts as they were: no diff (the parts skip this check, which holds for the whole texts only)
  if (sameTexts(before, after)) return { diff: undefined, firstChangedLine: undefined };
  let body = '';
  let first: number | undefined;
  for (let c = 0; c < cuts.length; c += 4) {
    const newFrom = cuts[c]!;
    const newTo = cuts[c + 1]!;
    const oldFrom = cuts[c + 2]!;
    const oldTo = cuts[c + 3]!;
    if (newFrom === newTo && oldFrom === oldTo) continue;
    const part: Piece[] = [];
    for (let k = newFrom; k < newTo; k++) {
      const p = pieces[k]!;
      if (!('src' in p)) part.push(p);
      else if (p.src < oldFrom || p.src >= oldTo) return undefined;
      else part.push({ src: p.src - oldFrom });
    }
    const last = newTo === nb;
    const r = diffPass(
      path,
      { lines: oldLines.slice(oldFrom, oldTo), finalNewline: !last || before.finalNewline },
      part,
      { lines: newLines.slice(newFrom, newTo), finalNewline: !last || after.finalNewline },
      context,
      { oldStart: oldFrom, newStart: newFrom, newTotal: nb, part: true },
    );
    if (r.diff === undefined) continue;
    first ??= r.firstChangedLine;
    body += r.diff.slice(`--- ${path}\n+++ ${path}\n`.length);
  }
  return first === undefined ? { diff: undefined, firstChangedLine: undefined } : { diff: `--- ${path}\n+++ ${path}\n${body}`, firstChangedLine: first };
}

/**
 * The pass over two texts, or over a window of them (`at`) numbered as the whole texts. `after`
 * is the pieces materialized line for line (diffOf has dropped an empty last piece).
 */
export function diffPass(path: string, before: DiffSide, pieces: readonly Piece[], after: DiffSide, context: number, at?: DiffWindow): PieceDiff {
  const oldBase = at?.oldStart ?? 0;
  const newBase = at?.newStart ?? 0;
  const newTotal = at?.newTotal ?? after.lines.length;
  // pieces can describe a change that leaves the text as it was (a line deleted and the same line
  // added further on): no diff then
  if (at?.part !== true && sameTexts(before, after)) return { diff: undefined, firstChangedLine: undefined };
  const oldTerm = (i: number) => i < before.lines.length - 1 || before.finalNewline;
  const newTerm = (k: number) => k < after.lines.length - 1 || after.finalNewline;
  const same = (i: number, k: number) => before.lines[i] === after.lines[k] && oldTerm(i) === newTerm(k);

  // 1. entries: kind and index (old index for EQ/DEL, new index for ADD; EQ also keeps its new index)
  const kind: number[] = [];
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let dels: number[] = [];
  let adds: number[] = [];
  const emit = (t: number, o: number, n: number) => {
    kind.push(t);
    oldAt.push(o);
    newAt.push(n);
  };
  const flush = () => {
    let p = 0;
    while (p < dels.length && p < adds.length && same(dels[p]!, adds[p]!)) p++;
    let s = 0;
    while (s < dels.length - p && s < adds.length - p && same(dels[dels.length - 1 - s]!, adds[adds.length - 1 - s]!)) s++;
    for (let j = 0; j < p; j++) emit(EQ, dels[j]!, adds[j]!);
    for (let j = p; j < dels.length - s; j++) emit(DEL, dels[j]!, -1);
    for (let j = p; j < adds.length - s; j++) emit(ADD, -1, adds[j]!);
    for (let j = s; j > 0; j--) emit(EQ, dels[dels.length - j]!, adds[adds.length - j]!);
    dels = [];
    adds = [];
  };
  let o = 0;
  pieces.forEach((piece, k) => {
    if (!('src' in piece)) {
      adds.push(k);
      return;
    }
    for (; o < piece.src; o++) dels.push(o);
    o = piece.src + 1;
    if (same(piece.src, k)) {
      flush();
      emit(EQ, piece.src, k);
    } else {
      dels.push(piece.src);
      adds.push(k);
    }
  });
  for (; o < before.lines.length; o++) dels.push(o);
  flush();

  // 2. hunks: runs of changes, joined when at most 2×context equal lines lie between them
  const total = kind.length;
  const out: string[] = [];
  let first: number | undefined;
  let i = 0;
  while (i < total) {
    if (kind[i] === EQ) {
      i++;
      continue;
    }
    first ??= i;
    let start = i;
    for (let c = 0; c < context && start > 0 && kind[start - 1] === EQ; c++) start--;
    let end = i; // exclusive end of the last change run in this hunk
    for (;;) {
      while (end < total && kind[end] !== EQ) end++;
      let gap = 0;
      while (end + gap < total && kind[end + gap] === EQ) gap++;
      if (end + gap < total && gap <= 2 * context) end += gap;
      else break;
    }
    let stop = end;
    for (let c = 0; c < context && stop < total && kind[stop] === EQ; c++) stop++;
    out.push(hunk(start, stop));
    i = stop;
  }
  if (out.length === 0) return { diff: undefined, firstChangedLine: undefined };

  function hunk(from: number, to: number): string {
    let oldLines = 0;
    let newLines = 0;
    const body: string[] = [];
    for (let j = from; j < to; j++) {
      const t = kind[j]!;
      if (t === EQ) {
        oldLines++;
        newLines++;
        body.push(` ${displayText(before.lines[oldAt[j]!]!)}`);
        if (!oldTerm(oldAt[j]!)) body.push(NO_NEWLINE);
      } else if (t === DEL) {
        oldLines++;
        body.push(`-${displayText(before.lines[oldAt[j]!]!)}`);
        if (!oldTerm(oldAt[j]!)) body.push(NO_NEWLINE);
      } else {
        newLines++;
        body.push(`+${displayText(after.lines[newAt[j]!]!)}`);
        if (!newTerm(newAt[j]!)) body.push(NO_NEWLINE);
      }
    }
    const oldStart = oldBase + startLine(from, oldAt, (t) => t !== ADD) + (oldLines === 0 ? -1 : 0);
    const newStart = newBase + startLine(from, newAt, (t) => t !== DEL) + (newLines === 0 ? -1 : 0);
    return [`@@ -${oldStart},${oldLines} +${newStart},${newLines} @@`, ...body].join('\n');
  }

  /** 1-based line number (on one side) where the hunk starting at entry `from` begins. */
  function startLine(from: number, at: readonly number[], onSide: (t: number) => boolean): number {
    for (let j = from; j < total; j++) if (onSide(kind[j]!)) return at[j]! + 1;
    // no line of this side in or after the hunk: it starts after the last line of that side
    for (let j = from - 1; j >= 0; j--) if (onSide(kind[j]!)) return at[j]! + 2;
    return 1;
  }

  let firstNew = 0;
  for (let j = 0; j < first!; j++) if (kind[j] !== DEL) firstNew++;
  const firstChangedLine = Math.min(newBase + firstNew, Math.max(newTotal - 1, 0)) + 1;
  return { diff: `--- ${path}\n+++ ${path}\n${out.join('\n')}\n`, firstChangedLine };
}
