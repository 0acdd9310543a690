// Which line of a text each line of its edited form is a verbatim copy of: what a diff of the edit
// is read off (core/edit/piece-diff.ts) without a generic line diff of the two texts. Lines are cut
// as splitLines cuts them (`\r\n`, `\n` or a lone `\r` ends a line; a text that ends with a
// terminator has no empty last line). The map is conservative: a line next to or inside an edit is
// never claimed as a copy, and one that is claimed is checked to be exactly the same characters.

import type { TextEdit } from './text-edits.js';

/**
 * The starts of the last two texts asked for: a rewrite's line sources and then its diff ask for the
 * same two texts (the text before and the text after).
 */
let recentStarts: Array<{ text: string; starts: readonly number[] }> = [];

/** The offset where each line of `text` starts (empty for an empty text). */
export function lineStarts(text: string): readonly number[] {
  const found = recentStarts.find((r) => r.text === text);
  if (found !== undefined) return found.starts;
  const starts = computeStarts(text);
  recentStarts = [{ text, starts }, ...recentStarts.slice(0, 1)];
  return starts;
}

function computeStarts(text: string): number[] {
  const starts: number[] = [];
  if (text.length === 0) return starts;
  starts.push(0);
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      else if (c !== 0x0d && c !== 0x0a) continue;
      starts.push(i + 1);
    }
  }
  if (starts[starts.length - 1] === text.length) starts.pop();
  return starts;
}

/** The line (index into `starts`, which rise) holding `offset`; offsets at or past the end belong to the last line. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * For each line of `after` (which is `before` with `edits` applied: sorted, non-overlapping), the
 * index of the line of `before` it copies, or -1 for a line the edits made or changed. Indices rise.
 */
export function lineSources(before: string, edits: readonly TextEdit[], after: string): Int32Array {
  const sx = lineStarts(before);
  const sy = lineStarts(after);
  const map = new Int32Array(sy.length).fill(-1);
  if (sx.length === 0) return map;
  // a line an edit starts or ends in (a pure insertion: the line it is put in) is changed
  const touched = new Uint8Array(sx.length);
  for (const e of edits) touched.fill(1, lineAt(sx, e.start), lineAt(sx, e.end) + 1);
  const endX = (i: number) => (i + 1 < sx.length ? sx[i + 1]! : before.length);
  const endY = (k: number) => (k + 1 < sy.length ? sy[k + 1]! : after.length);
  let delta = 0; // after-offset minus before-offset at the current line
  let e = 0;
  let k = 0;
  for (let i = 0; i < sx.length; i++) {
    // the edits inside line i (all of them lie in changed lines) shift what follows
    for (; e < edits.length && lineAt(sx, edits[e]!.start) <= i; e++) delta += edits[e]!.text.length - (edits[e]!.end - edits[e]!.start);
    if (touched[i]) continue;
    const at = sx[i]! + delta;
    while (k < sy.length && sy[k]! < at) k++;
    if (k === sy.length) break;
    if (sy[k] === at && endY(k) - at === endX(i) - sx[i]!) map[k] = i;
  }
  return map;
}

/** `second` composed after `first`: for each line of the last text, the line of the first text it copies, or -1. */
export function composeSources(first: Int32Array, second: Int32Array): Int32Array {
  return second.map((s) => (s < 0 ? -1 : first[s]!));
}
