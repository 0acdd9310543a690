// Renders the numbered body of a read (spec/hashline.md, "Read Target rules"): whole files (every
// element of `text.split('\n')`, so a trailing newline gives a last empty `N| ` line), exact line
// ranges (gap lines between ranges, beyond-EOF warnings, the how-to-continue footer), and blocks
// (elided above 24 lines to 3 head lines, `…`, 2 tail lines, unless the caller asks for them whole). Range and block lines over 200
// characters are cut to 197 plus `...`. Escaped non-UTF-8 bytes are shown as U+FFFD. Every line
// rendered whole is reported in `seen`; an elided interior is not.

import { HL_LINE_BODY_SEP } from '../text/tag.js';
import { displayText } from '../text/text-codec.js';
import type { LineSpanRange } from './line-range.js';
import {
  ELISION_MARKER,
  MAX_COLUMN,
  TRUNCATED_NOTICE,
  elided,
  lineCapped,
  moreLines,
  outputCapped,
  rangeBeyondEof,
  rangesGap,
} from '../messages/read.js';
import { jsonEscapedBytes, ReplyBudget } from './reply-budget.js';

export const ELIDE_MIN_BLOCK_LINES = 24;
export const ELIDE_KEEP_HEAD = 3;
export const ELIDE_KEEP_TAIL = 2;

/** The lines of a file as `file_lines` gives them: no empty element after a trailing newline. */
export interface LineSource {
  /** Number of lines (a trailing newline adds none). */
  readonly total: number;
  /** Line `n` (1-based, 1..total) without its terminator. */
  line(n: number): string;
  /** True when the file is known to be valid UTF-8 (no escaped bytes to show as U+FFFD). */
  readonly utf8?: boolean;
}

export interface Rendered {
  body: string[];
  /**
   * `body` in groups, each joined with newlines (joined with newlines again they give the body),
   * when the renderer already built them: each group stays under V8's 128 KiB object size, so only
   * the content is one large string (see PIECE_UNITS).
   */
  pieces?: string[];
  /** Line numbers shown whole. */
  seen: number[];
  /** Appended to content, one per line. */
  notices: string[];
  /** Delivery problems (the result's `warnings`). */
  warnings: string[];
  /** Content already assembled from this body, by header (a whole body kept in a memo). */
  contents?: Map<string, string>;
}

export function numbered(n: number, text: string): string {
  return `${n}${HL_LINE_BODY_SEP}${text}`;
}

/** Cuts a line longer than 200 characters (code points) to 197 plus `...`. */
export function truncateColumn(line: string): { text: string; truncated: boolean } {
  if (line.length <= MAX_COLUMN) return { text: line, truncated: false };
  let count = 0;
  let cut = 0;
  for (let i = 0; i < line.length; count++) {
    if (count === MAX_COLUMN - 3) cut = i;
    if (count === MAX_COLUMN) return { text: `${line.slice(0, cut)}...`, truncated: true };
    const c = line.charCodeAt(i);
    i += (c & 0xfc00) === 0xd800 && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return { text: line, truncated: false };
}

/** Shows as much of an over-long line as the budget allows. */
function cutToBudget(prefix: string, text: string, budget: ReplyBudget): string {
  const room = Math.max(0, Math.floor(budget.remaining / 2) - ReplyBudget.cost(prefix) / 2 - 64);
  // every UTF-16 unit costs at most 6 escaped bytes; shrink until it fits
  let take = Math.min(text.length, room);
  while (take > 0 && ReplyBudget.cost(prefix + text.slice(0, take)) > budget.remaining) take = Math.floor(take / 2);
  const cut = text.slice(0, take);
  return (cut.length > 0 && (cut.charCodeAt(cut.length - 1) & 0xfc00) === 0xd800) ? cut.slice(0, -1) : cut;
}

class Builder {
  readonly out: Rendered = { body: [], seen: [], notices: [], warnings: [] };
  truncatedAny = false;
  capped = false;
  /** The line the budget stopped at was shown in part. */
  cutShown = false;

  constructor(
    private readonly budget: ReplyBudget,
    private readonly truncate: boolean,
  ) {}

  /** Adds line n; false when the reply budget ran out (a capped notice is then due). */
  add(n: number, raw: string, markSeen = true): boolean {
    let text = displayText(raw);
    if (this.truncate) {
      const t = truncateColumn(text);
      text = t.text;
      this.truncatedAny ||= t.truncated;
    }
    const line = numbered(n, text);
    if (!this.budget.take(line)) {
      this.capped = true;
      if (this.out.body.length === 0) {
        // not even one line fits whole: show what fits of it, so the reply is never empty
        const prefix = numbered(n, '');
        const cut = cutToBudget(prefix, text, this.budget);
        if (cut.length > 0) {
          this.out.body.push(prefix + cut);
          this.out.notices.push(lineCapped(n, [...cut].length));
          this.cutShown = true;
        }
      }
      this.budget.close();
      return false;
    }
    this.out.body.push(line);
    if (markSeen) this.out.seen.push(n);
    return true;
  }

  marker(text: string): void {
    this.budget.spend(text);
    this.out.body.push(text);
  }

  /** The how-to-continue notice after the budget stopped the read at line `at`. */
  capNotice(at: number, last: number): void {
    const next = this.cutShown ? at + 1 : at;
    if (next <= last) this.out.notices.push(outputCapped(this.budget.limit, next, last));
  }

  finish(): Rendered {
    if (this.truncatedAny) this.out.notices.push(TRUNCATED_NOTICE);
    return this.out;
  }
}

/** A whole body as the bulk path renders it, kept in a loaded file's memo for the next read of the same bytes. */
interface WholeBody {
  body: string[];
  pieces: string[];
  /** What the body costs in the reply budget. */
  cost: number;
  seen: number[];
  contents: Map<string, string>;
}

/**
 * UTF-16 units per group of a whole body's lines. Strings over 128 KiB live in V8's large-object
 * space, each on fresh pages, and on a VM their page faults cost more than the copying: so the body
 * is measured in groups and joined once, with its header, into the content.
 */
const PIECE_UNITS = 32 * 1024;

function wholeBody(src: LineSource, last: number): WholeBody {
  const body: string[] = new Array(last);
  const show = src.utf8 === true ? (x: string) => x : displayText;
  const pieces: string[] = [];
  let escaped = 0;
  let from = 0;
  let units = 0;
  const group = (to: number) => {
    const piece = body.slice(from, to).join('\n');
    pieces.push(piece);
    escaped += jsonEscapedBytes(piece);
    from = to;
    units = 0;
  };
  for (let n = 1; n <= last; n++) {
    const line = numbered(n, n > src.total ? '' : show(src.line(n)));
    body[n - 1] = line;
    units += line.length + 1;
    if (units >= PIECE_UNITS) group(n);
  }
  if (from < last || last === 0) group(last);
  const seen = Array.from({ length: src.total }, (_, i) => i + 1);
  // each newline between pieces escapes to two bytes
  return { body, pieces, cost: 2 * (escaped + 2 * (pieces.length - 1) + 2 * last), seen, contents: new Map() };
}

/**
 * A whole file: lines 1..total, plus the empty element after a trailing newline (`trailingEmpty`,
 * also true for an empty file), numbered total+1. Not column-truncated (as the reference).
 * `memo` (optional) belongs to the lines of `src` (io/read/whole-read-cache.ts): the body rendered
 * there before is used again, and the arrays of the result are then shared (read-only).
 */
export function renderWhole(src: LineSource, trailingEmpty: boolean, budget: ReplyBudget, memo?: Map<string, unknown>): Rendered {
  const last = trailingEmpty ? src.total + 1 : src.total;
  // bulk path: when the whole body surely fits, skip the per-line accounting
  const key = `renderWhole:${last}`;
  let w = memo?.get(key) as WholeBody | undefined;
  if (w === undefined) {
    w = wholeBody(src, last);
    memo?.set(key, w);
  }
  if (budget.takeBytes(w.cost)) {
    return { body: w.body, pieces: w.pieces, seen: w.seen, notices: [], warnings: [], ...(memo ? { contents: w.contents } : {}) };
  }
  const b = new Builder(budget, false);
  for (let n = 1; n <= last; n++) {
    const isExtra = n > src.total;
    if (!b.add(n, isExtra ? '' : src.line(n), !isExtra)) {
      b.capNotice(n, src.total);
      break;
    }
  }
  return b.finish();
}

export interface RangeOptions {
  /** Add the `[N more lines in file; ...]` footer (default true; search hits leave it out). */
  footer?: boolean;
  /** Cut long lines even when exactly one line is asked for (search hits). */
  alwaysTruncate?: boolean;
}

/** Exact line ranges, in the order given (not merged), as the reference renders them. */
export function renderRanges(src: LineSource, ranges: readonly LineSpanRange[], budget: ReplyBudget, options: RangeOptions = {}): Rendered {
  const total = src.total;
  // a request for exactly one line ("N-N") shows it whole, so the truncation notice's advice leads somewhere
  const single = options.alwaysTruncate !== true && ranges.length === 1 && ranges[0]!.start === ranges[0]!.end;
  const b = new Builder(budget, !single);
  let prevEnd: number | undefined;
  outer: for (const { start, end } of ranges) {
    if (start > total) {
      b.out.warnings.push(rangeBeyondEof(start, end, total));
      continue;
    }
    const effEnd = Math.min(end, total);
    if (prevEnd !== undefined && start > prevEnd + 1) b.marker(rangesGap(start - prevEnd - 1));
    for (let n = start; n <= effEnd; n++) {
      if (!b.add(n, src.line(n))) {
        b.capNotice(n, total);
        break outer;
      }
    }
    prevEnd = effEnd;
  }
  const out = b.finish();
  if (options.footer !== false && !b.capped && out.seen.length > 0) {
    const lastShown = Math.max(...out.seen);
    if (lastShown < total) out.notices.push(moreLines(total - lastShown, lastShown + 1, total));
  }
  return out;
}

/**
 * A block (lines start..end of the file): whole up to 24 lines, else head, `…`, tail; `full` (the
 * caller's opt-in) shows it whole at any length, within the reply budget.
 */
export function renderBlock(src: LineSource, span: LineSpanRange, budget: ReplyBudget, full = false): Rendered {
  const end = Math.min(span.end, src.total);
  const start = Math.min(span.start, end);
  const n = end - start + 1;
  const b = new Builder(budget, true);
  const addAll = (from: number, to: number): boolean => {
    for (let i = from; i <= to; i++) {
      if (!b.add(i, src.line(i))) {
        b.capNotice(i, end);
        return false;
      }
    }
    return true;
  };
  if (full || n <= ELIDE_MIN_BLOCK_LINES) {
    addAll(start, end);
    return b.finish();
  }
  const tailStart = end - ELIDE_KEEP_TAIL + 1;
  if (addAll(start, start + ELIDE_KEEP_HEAD - 1)) {
    b.marker(ELISION_MARKER);
    if (addAll(tailStart, end)) b.out.notices.push(elided(start + ELIDE_KEEP_HEAD, tailStart - 1));
  }
  return b.finish();
}

/** `content` of a ReadResult: header, the body lines, then each notice on its own line. */
export function assembleContent(header: string, r: Rendered): string {
  const kept = r.notices.length === 0 ? r.contents?.get(header) : undefined;
  if (kept !== undefined) return kept;
  // one join: a flat string, copied once (a `+` would leave pieces the reply's encoder must flatten)
  const s = [header, ...(r.pieces ?? (r.body.length > 0 ? r.body : [''])), ...r.notices].join('\n');
  if (r.notices.length === 0 && r.contents) {
    // one entry: a file is shown under one header at a time
    r.contents.clear();
    r.contents.set(header, s);
  }
  return s;
}
