// The exact line map of an edit this server applied: which lines of the text it edited survive and
// where they are now, and where each gap between two lines went. It is read off the hunks as they
// were applied (and checked against the pieces the edit produced), so it is what happened, not a
// diff's guess. A later edit of the same session written against the older text is carried through
// it (the session-chain rule): a replaced range lands where its lines are, when every one of them
// survived, still in one run; an insertion lands where its gap went. A gap at the edge of a range
// the earlier edit replaced is the edge of what replaced it (after line N, when line N was
// rewritten, is after its rewrite; before line N+1 is the same place). A gap where the earlier edit
// inserted rows, or inside a range it replaced, has no place: both sides of it no longer meet.

import { checkConflicts } from '../edit/plan.js';
import type { Hunk, Piece } from '../edit/ops.js';

/** Old lines lo..hi-1 (0-based) became `rows` new lines; lo === hi: `rows` lines inserted at gap lo. */
interface Span {
  readonly lo: number;
  readonly hi: number;
  readonly rows: number;
}

export interface EditShape {
  /** Lines of the text the edit was applied to, and of the text it wrote. */
  readonly from: number;
  readonly to: number;
  /** Sorted by position; an insertion at a gap comes before a range starting there. */
  readonly spans: readonly Span[];
}

const isInsert = (s: Span) => s.lo === s.hi;

/** Where old line i (0-based) is now, or -1 when the edit replaced or deleted it. */
export function mapLine(shape: EditShape, i: number): number {
  let delta = 0;
  for (const s of shape.spans) {
    if (s.lo > i) break;
    if (!isInsert(s) && i < s.hi) return -1;
    delta += s.rows - (s.hi - s.lo);
  }
  return i + delta;
}

/**
 * Where old gap g (between old lines g-1 and g; 0 is the file's start, `from` its end) is now, as
 * a gap of the new text, or -1 when the edit inserted rows there or replaced lines on both sides.
 */
export function mapGap(shape: EditShape, g: number): number {
  let delta = 0;
  for (const s of shape.spans) {
    if (isInsert(s)) {
      if (s.lo === g && s.rows > 0) return -1;
      if (s.lo >= g) break;
    } else {
      if (s.lo >= g) break;
      if (g < s.hi) return -1;
    }
    delta += s.rows - (s.hi - s.lo);
  }
  return g + delta;
}

/**
 * The shape of an edit from its hunks as applied to `n` lines and the pieces it produced, or null
 * when they do not agree (then no map is kept, and nothing is carried through this edit).
 */
export function shapeOf(n: number, hunks: readonly Hunk[], pieces: readonly Piece[]): EditShape | null {
  const inserts = new Map<number, number>();
  const ranges: Span[] = [];
  const insert = (g: number, rows: number) => {
    if (rows > 0) inserts.set(g, (inserts.get(g) ?? 0) + rows);
  };
  for (const h of hunks) {
    switch (h.kind) {
      case 'head':
        insert(0, h.rows.length);
        break;
      case 'tail':
        insert(n, h.rows.length);
        break;
      case 'before':
        insert(h.line - 1, h.rows.length);
        break;
      case 'after':
        insert(h.line, h.rows.length);
        break;
      case 'range':
        ranges.push({ lo: h.start - 1, hi: h.end, rows: h.rows.length });
        break;
    }
  }
  const spans = [...ranges, ...[...inserts].map(([g, rows]) => ({ lo: g, hi: g, rows }))].sort((a, b) => a.lo - b.lo || (isInsert(a) ? -1 : 0) - (isInsert(b) ? -1 : 0));
  for (let k = 1; k < spans.length; k++) {
    const a = spans[k - 1]!;
    const b = spans[k]!;
    if (!isInsert(a) && b.lo < a.hi) return null;
  }
  const to = spans.reduce((m, s) => m + s.rows - (s.hi - s.lo), n);
  const shape: EditShape = { from: n, to, spans };
  if (to !== pieces.length) return null;
  // every kept line must be where the map says, and no other line kept (one sweep over the spans)
  let kept = 0;
  for (let j = 0; j < pieces.length; j++) if ('src' in pieces[j]!) kept++;
  let mapped = 0;
  let delta = 0;
  let k = 0;
  for (let i = 0; i < n; i++) {
    // the lines before the next span: one plain loop (this runs once per edit, mostly before the
    // JIT has compiled it); a text piece has no src
    const stop = k < spans.length ? Math.min(spans[k]!.lo, n) : n;
    if (i < stop) {
      mapped += stop - i;
      for (; i < stop; i++) if ((pieces[i + delta] as { src?: number } | undefined)?.src !== i) return null;
      if (i >= n) break;
    }
    let inside = false;
    while (k < spans.length && spans[k]!.lo <= i) {
      const s = spans[k]!;
      if (!isInsert(s) && i < s.hi) {
        inside = true;
        break;
      }
      delta += s.rows - (s.hi - s.lo);
      k++;
    }
    if (inside) continue;
    mapped++;
    const p = pieces[i + delta];
    if (p === undefined || !('src' in p) || p.src !== i) return null;
  }
  return mapped === kept ? shape : null;
}

const lineThrough = (chain: readonly EditShape[], i: number) => chain.reduce((at, s) => (at < 0 ? at : mapLine(s, at)), i);
const gapThrough = (chain: readonly EditShape[], g: number) => chain.reduce((at, s) => (at < 0 ? at : mapGap(s, at)), g);

/**
 * The hunks of an edit written against `read` carried through the session's own edits (`chain`,
 * oldest first) onto `live`, or null when a hunk has no place there (or the hunks now meet).
 */
export function carryHunks(hunks: readonly Hunk[], chain: readonly EditShape[], read: readonly string[], live: readonly string[]): Hunk[] | null {
  if (chain.length === 0 || chain[0]!.from !== read.length || chain[chain.length - 1]!.to !== live.length) return null;
  for (let k = 1; k < chain.length; k++) if (chain[k]!.from !== chain[k - 1]!.to) return null;
  const out: Hunk[] = [];
  // ranges first: an insertion is anchored on a line no range of the edit covers
  const covered = new Set<number>();
  for (const h of hunks) {
    if (h.kind !== 'range') continue;
    const j0 = lineThrough(chain, h.start - 1);
    if (j0 < 0) return null;
    // every line of the range survived, in one run, with its text
    for (let i = h.start - 1; i < h.end; i++) {
      const j = j0 + (i - (h.start - 1));
      if (lineThrough(chain, i) !== j || live[j] !== read[i]) return null;
      covered.add(j + 1);
    }
    out.push({ ...h, start: j0 + 1, end: j0 + 1 + (h.end - h.start) });
  }
  // insertions by the gap of the live text they land on; two gaps that are now one (the lines
  // between them were deleted) take their rows in the order they had
  const gaps = new Map<number, Extract<Hunk, { kind: 'before' | 'after' }>[]>();
  for (const h of hunks) {
    if (h.kind === 'range') continue;
    if (h.kind === 'head' || h.kind === 'tail') {
      out.push(h);
      continue;
    }
    const g = h.kind === 'before' ? h.line - 1 : h.line;
    const k = gapThrough(chain, g);
    if (k < 0) return null;
    gaps.set(k, [...(gaps.get(k) ?? []), h]);
  }
  for (const [k, list] of gaps) {
    const order = (h: (typeof list)[number]) => (h.kind === 'before' ? h.line - 1 : h.line);
    const sorted = [...list].sort((a, b) => order(a) - order(b));
    if (sorted.some((h, i) => i > 0 && order(h) === order(sorted[i - 1]!))) return null;
    const first = sorted[0]!;
    const rows = sorted.flatMap((h) => h.rows);
    // gap k of the live text: after line k, or before line k + 1, on a line no range covers
    if (k >= 1 && !covered.has(k)) out.push({ kind: 'after', line: k, rows, dslLine: first.dslLine });
    else if (k < live.length && !covered.has(k + 1)) out.push({ kind: 'before', line: k + 1, rows, dslLine: first.dslLine });
    // at a file end next to a range of the edit: rows at that end (a second head or tail is refused below)
    else if (k === live.length) out.push({ kind: 'tail', rows, dslLine: first.dslLine });
    else if (k === 0) out.push({ kind: 'head', rows, dslLine: first.dslLine });
    else return null;
  }
  try {
    checkConflicts(out);
  } catch {
    return null;
  }
  return out;
}
