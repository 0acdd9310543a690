// The context windows of a rejected stale edit: the live lines around each anchor, numbered like
// a read (`N| text`), anchor lines marked with `*`, gaps between windows shown as `...`.

import { displayText } from '../text/text-codec.js';

/** Lines shown on each side of an anchor. */
export const MISMATCH_CONTEXT = 2;
/** Anchors listed at most (a long range shows its first and last lines). */
const MAX_ANCHORS = 40;

export function mismatchContext(lines: readonly string[], anchors: readonly number[], context = MISMATCH_CONTEXT): string {
  const total = lines.length;
  const marked = new Set(anchors.filter((n) => n >= 1 && n <= total).slice(0, MAX_ANCHORS));
  if (marked.size === 0) return '';
  const windows: Array<[number, number]> = [];
  for (const n of [...marked].sort((a, b) => a - b)) {
    const lo = Math.max(1, n - context);
    const hi = Math.min(total, n + context);
    const last = windows[windows.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else windows.push([lo, hi]);
  }
  const out: string[] = [];
  windows.forEach(([lo, hi], k) => {
    if (k > 0 || lo > 1) out.push('...');
    for (let n = lo; n <= hi; n++) out.push(`${marked.has(n) ? '*' : ''}${n}| ${displayText(lines[n - 1]!)}`);
  });
  if ((windows[windows.length - 1]?.[1] ?? total) < total) out.push('...');
  return out.join('\n');
}
