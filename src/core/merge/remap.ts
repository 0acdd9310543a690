// Moves hunks written against a snapshot onto the live text, or refuses. A hunk moves only when
// the lines it anchors on, plus MERGE_MARGIN lines on each side (the file's start and end count as
// lines), survive unchanged and contiguous in the live text: an edit that touches or borders the
// drift never lands. Head and tail inserts need no anchor.

import type { Hunk } from '../edit/ops.js';

/** Unchanged lines required on each side of an anchored hunk. */
export const MERGE_MARGIN = 1;

/**
 * The live index of snapshot line `i` (0-based), with the file boundaries as virtual lines:
 * -1 maps to -1 and `n` (one past the end) maps to the live length.
 */
function at(map: Int32Array, i: number, liveLength: number): number {
  if (i < 0) return -1;
  if (i >= map.length) return liveLength + (i - map.length);
  return map[i]!;
}

/** True when snapshot lines lo..hi (0-based, inclusive, may reach the virtual boundaries) map contiguously. */
function stable(map: Int32Array, lo: number, hi: number, liveLength: number): boolean {
  const first = Math.max(lo, -1);
  const last = Math.min(hi, map.length);
  let prev = at(map, first, liveLength);
  if (first >= 0 && first < map.length && prev < 0) return false;
  for (let i = first + 1; i <= last; i++) {
    const cur = at(map, i, liveLength);
    if (cur !== prev + 1) return false;
    prev = cur;
  }
  return true;
}

/** The hunks renumbered onto the live text, or null when one of them borders or overlaps the drift. */
export function remapHunks(hunks: readonly Hunk[], map: Int32Array, liveLength: number, margin = MERGE_MARGIN): Hunk[] | null {
  const out: Hunk[] = [];
  for (const h of hunks) {
    switch (h.kind) {
      case 'head':
      case 'tail':
        out.push(h);
        break;
      case 'range': {
        const s = h.start - 1;
        const e = h.end - 1;
        if (!stable(map, s - margin, e + margin, liveLength)) return null;
        out.push({ ...h, start: map[s]! + 1, end: map[e]! + 1 });
        break;
      }
      case 'before':
      case 'after': {
        // The insertion point lies between two lines; `margin` lines on each side must hold.
        const gapAfter = h.kind === 'before' ? h.line - 2 : h.line - 1;
        if (!stable(map, gapAfter - margin + 1, gapAfter + margin, liveLength)) return null;
        out.push({ ...h, line: map[h.line - 1]! + 1 });
        break;
      }
    }
  }
  return out;
}
