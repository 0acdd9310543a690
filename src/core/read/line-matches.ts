// Where a pattern matches a text, by line: the 1-based numbers of the lines a match touches (a
// match spanning lines counts on each), and the windows of lines a reply shows around them (hits
// plus `context` lines each side, overlapping windows merged). Pure; units are UTF-16 offsets.

import type { LinePattern } from './linear-regex.js';
import type { LineSpanRange } from './line-range.js';

export interface LineHits {
  /** Sorted, distinct, 1-based. */
  lines: number[];
  /** True when the scan stopped at `limit` lines and more may follow. */
  more: boolean;
}

/**
 * The lines `re` (global) matches in `text` (LF), at most `limit` of them. After a match the scan
 * resumes at the next line, so a line is tested once however many matches it holds.
 */
export function matchLines(text: string, re: LinePattern, limit = Number.POSITIVE_INFINITY): LineHits {
  const lines: number[] = [];
  let line = 1;
  let counted = 0; // newlines before `counted` are in `line`
  const lineAt = (index: number): number => {
    for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < index; nl = text.indexOf('\n', counted)) {
      line++;
      counted = nl + 1;
    }
    return line;
  };
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = lineAt(m.index);
    const endIndex = m[0].length > 0 ? m.index + m[0].length - 1 : m.index;
    const end = lineAt(endIndex);
    for (let n = Math.max(start, (lines[lines.length - 1] ?? 0) + 1); n <= end; n++) {
      if (lines.length >= limit) return { lines, more: true };
      lines.push(n);
    }
    // resume at the start of the line after the match's last line
    const nl = text.indexOf('\n', Math.max(endIndex, m.index));
    if (nl < 0) break;
    re.lastIndex = nl + 1;
    if (re.lastIndex > text.length) break;
  }
  return { lines, more: false };
}

/** True when `re` matches anywhere in `text`. */
export function matchesAny(text: string, re: LinePattern): boolean {
  re.lastIndex = 0;
  const hit = re.test(text);
  re.lastIndex = 0;
  return hit;
}

/** The windows around sorted hit lines: each hit ± context, clamped to 1..total, merged when they touch. */
export function hitWindows(hits: readonly number[], context: number, total: number): LineSpanRange[] {
  const out: LineSpanRange[] = [];
  for (const h of hits) {
    const start = Math.max(1, h - context);
    const end = Math.min(total, h + context);
    const last = out[out.length - 1];
    if (last && start <= last.end + 1) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}
