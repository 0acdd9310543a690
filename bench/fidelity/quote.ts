// How an agent quotes the text it replaces, for the tools that place an edit by its text (the
// reference server's oldText, the boundary family's aider search blocks): the lines an edit touches,
// grouped when a few lines apart, each group widened a line at a time (above, then below) until its
// text occurs once in what the agent has seen; a pure insertion or deletion always carries one line
// of context. The replacement is the quoted lines with the edit's hunks applied.

import type { AbstractEdit, Hunk } from './oracle.js';

/** Hunks closer than this many lines share one quote. */
export const GROUP = 8;

/** Lines [lo, hi) of the file as read, and the hunks of the edit inside them. */
export interface Region {
  lo: number;
  hi: number;
  hunks: Hunk[];
}

/** Occurrences of `needle` in `text` (overlapping ones count), counted up to 2. */
export function occurrences(text: string, needle: string): number {
  if (needle === '') return Infinity;
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && n < 2; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

export interface QuoteOptions {
  /** Lines [lo, hi) the agent has seen (default: the whole file). */
  readonly bounds?: readonly [number, number];
  /** The text a quote must occur once in (default: the lines within the bounds, joined). */
  readonly text?: string;
  /** One region over all hunks, however far apart. */
  readonly single?: boolean;
}

/** Widens a region by a line at a time (above, then below) until its text occurs once in `text`. */
function widen(lines: readonly string[], text: string, r: Region, lo: number, hi: number): void {
  const pure = r.hunks.every((h) => h.rows.length === 0) || r.hunks.every((h) => h.start === h.end);
  if (pure || lines.slice(r.lo, r.hi).every((l) => l.trim() === '')) {
    if (r.lo > lo) r.lo--;
    else if (r.hi < hi) r.hi++;
  }
  let up = true;
  while (occurrences(text, lines.slice(r.lo, r.hi).join('\n')) !== 1 && (r.lo > lo || r.hi < hi)) {
    if ((up && r.lo > lo) || r.hi >= hi) r.lo--;
    else r.hi++;
    up = !up;
  }
}

/**
 * The regions an agent quotes for an edit: hunks a few lines apart share a region, each region is
 * widened until it occurs once, and regions that come to overlap are joined, so they never share a
 * line.
 */
export function quoteRegions(lines: readonly string[], edit: AbstractEdit, opts: QuoteOptions = {}): Region[] {
  const [lo, hi] = opts.bounds ?? [0, lines.length];
  const text = opts.text ?? lines.slice(lo, hi).join('\n');
  let regions: Region[] = [];
  for (const h of edit.hunks) {
    const last = regions[regions.length - 1];
    if (last && (opts.single || h.start - last.hi <= GROUP)) {
      last.hi = Math.max(last.hi, h.end);
      last.hunks.push(h);
    } else regions.push({ lo: h.start, hi: h.end, hunks: [h] });
  }
  for (;;) {
    for (const r of regions) widen(lines, text, r, lo, hi);
    const joined: Region[] = [];
    for (const r of regions) {
      const last = joined[joined.length - 1];
      if (last && r.lo <= last.hi) {
        last.hi = Math.max(last.hi, r.hi);
        last.hunks.push(...r.hunks);
      } else joined.push({ ...r, hunks: [...r.hunks] });
    }
    if (joined.length === regions.length) break;
    regions = joined;
  }
  return regions;
}

/** The region's lines with its hunks applied. */
export function rewrittenLines(lines: readonly string[], r: Region): string[] {
  const out: string[] = [];
  for (let i = r.lo; i <= r.hi; i++) {
    for (const h of r.hunks) if (h.start === i && h.end === i) out.push(...h.rows);
    if (i === r.hi) break;
    const h = r.hunks.find((x) => x.start === i && x.end > x.start);
    if (h) {
      out.push(...h.rows);
      i = h.end - 1;
      continue;
    }
    out.push(lines[i]!);
  }
  return out;
}

/** A search/replace pair of whole lines (each line ends with a newline). */
export interface Block {
  readonly search: string;
  readonly replace: string;
}

export function linesText(rows: readonly string[]): string {
  return rows.length === 0 ? '' : `${rows.join('\n')}\n`;
}

export function blockOf(lines: readonly string[], r: Region): Block {
  return { search: linesText(lines.slice(r.lo, r.hi)), replace: linesText(rewrittenLines(lines, r)) };
}
