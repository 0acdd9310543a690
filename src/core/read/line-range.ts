// The `line_range` syntax of fs_read: comma-separated `start-end` parts, 1-based and inclusive,
// whitespace trimmed around each part and each number, `-` the only separator. The first bad
// part decides the error, with the reference's exact words.

import { lineRangeFormat, lineRangeOrder } from '../messages/read.js';

export interface LineSpanRange {
  /** 1-based, inclusive. */
  start: number;
  /** 1-based, inclusive (not yet clamped to the file). */
  end: number;
}

export type LineRangeParse = { ok: true; ranges: LineSpanRange[] } | { ok: false; message: string };

const U32_MAX = 4_294_967_295;

/** A number as Rust's `u32::from_str` takes it: optional `+`, decimal digits, at most u32::MAX. */
function parseU32(s: string): number | null {
  if (!/^\+?[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n <= U32_MAX ? n : null;
}

export function parseLineRange(raw: string): LineRangeParse {
  const ranges: LineSpanRange[] = [];
  for (const rawPart of raw.split(',')) {
    const part = rawPart.trim();
    const dash = part.indexOf('-');
    if (part === '' || dash < 0) return { ok: false, message: lineRangeFormat(raw) };
    const start = parseU32(part.slice(0, dash).trim());
    const end = parseU32(part.slice(dash + 1).trim());
    if (start === null || end === null) return { ok: false, message: lineRangeFormat(raw) };
    if (start < 1 || end < start) return { ok: false, message: lineRangeOrder(raw) };
    ranges.push({ start, end });
  }
  return { ok: true, ranges };
}
