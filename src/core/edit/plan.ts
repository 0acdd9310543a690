// Resolves parsed ops against the file they were written for: block ops become line ranges,
// every line number is checked against the file, and two hunks on one anchor are refused.
// Nothing is skipped silently: every problem is a coded error (STYLE.md, "Edits are data").

import { HashlineError } from '../errors/errors.js';
import * as msg from '../messages/edit.js';
import type { BlockResolver, EditOp, Hunk } from './ops.js';

export interface PlanTarget {
  /** Lines of the file the numbers refer to (a trailing newline ends the last line; it adds none). */
  readonly lineCount: number;
  /** The LF text of that file (for block resolution). */
  readonly text: string;
  readonly resolveBlock?: BlockResolver | undefined;
}

function outOfRange(line: number, total: number, dslLine: number): never {
  throw new HashlineError('edit_out_of_range', msg.lineDoesNotExist(line, total), { details: { dslLine, line, total } });
}

function conflict(laterDsl: number, message: string, details: Record<string, unknown>): never {
  throw new HashlineError('edit_overlap', msg.atDslLine(laterDsl, message), { details: { dslLine: laterDsl, ...details } });
}

/**
 * The empty line a whole read shows after a final newline (`3| ` for `one\ntwo\n`, `1| ` for an
 * empty file), or null. It can be addressed: deleting it changes nothing, replacing it or inserting
 * next to it appends at the end of the file.
 */
function phantomLine(target: PlanTarget): number | null {
  return target.text === '' || target.text.endsWith('\n') ? target.lineCount + 1 : null;
}

function toHunk(op: EditOp, target: PlanTarget): Hunk | null {
  const total = target.lineCount;
  const phantom = phantomLine(target);
  const check = (line: number): void => {
    if (line > total && line !== phantom) outOfRange(line, total, op.dslLine);
  };
  const tail = (rows: readonly string[]): Hunk => ({ kind: 'tail', rows, dslLine: op.dslLine });
  switch (op.kind) {
    case 'replace':
    case 'delete': {
      check(op.start);
      check(op.end);
      const rows = op.kind === 'replace' ? op.rows : [];
      if (op.start === phantom) return rows.length === 0 ? null : tail(rows);
      return { kind: 'range', start: op.start, end: Math.min(op.end, total), rows, dslLine: op.dslLine };
    }
    case 'insert_before':
    case 'insert_after':
      check(op.line);
      if (op.line === phantom) return tail(op.rows);
      return { kind: op.kind === 'insert_before' ? 'before' : 'after', line: op.line, rows: op.rows, dslLine: op.dslLine };
    case 'insert_head':
    case 'insert_tail':
      return { kind: op.kind === 'insert_head' ? 'head' : 'tail', rows: op.rows, dslLine: op.dslLine };
    case 'replace_block':
    case 'delete_block': {
      check(op.line);
      const span = target.resolveBlock?.(target.text, op.line) ?? null;
      const verb = op.kind === 'replace_block' ? 'replace' : 'delete';
      if (span === null || span.start !== op.line || span.end < span.start || span.end > total) {
        throw new HashlineError('edit_parse_error', msg.atDslLine(op.dslLine, msg.blockUnresolved(verb, op.line)), {
          details: { dslLine: op.dslLine, line: op.line },
        });
      }
      return { kind: 'range', start: span.start, end: span.end, rows: op.kind === 'replace_block' ? op.rows : [], dslLine: op.dslLine };
    }
  }
}

type RangeHunk = Extract<Hunk, { kind: 'range' }>;

/** The range hunk covering `line` among sorted, disjoint ranges, or undefined. */
function coveringRange(ranges: readonly RangeHunk[], line: number): RangeHunk | undefined {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (line < r.start) hi = mid - 1;
    else if (line > r.end) lo = mid + 1;
    else return r;
  }
  return undefined;
}

/** Refuses two hunks on one anchor: overlapping ranges, an insert next to a replaced line, a repeated insert. */
export function checkConflicts(hunks: readonly Hunk[]): void {
  const ranges = hunks.filter((h): h is RangeHunk => h.kind === 'range').sort((a, b) => a.start - b.start || a.dslLine - b.dslLine);
  for (let i = 1; i < ranges.length; i++) {
    const prev = ranges[i - 1]!;
    const next = ranges[i]!;
    if (next.start <= prev.end) {
      const [first, later] = prev.dslLine < next.dslLine ? [prev, next] : [next, prev];
      conflict(later.dslLine, msg.anchorConflict(next.start, first.dslLine), { anchorLine: next.start, otherDslLine: first.dslLine });
    }
  }
  const slots = new Map<string, number>();
  for (const h of hunks) {
    if (h.kind === 'range') continue;
    if (h.kind === 'head' || h.kind === 'tail') {
      const prior = slots.get(h.kind);
      if (prior !== undefined) conflict(Math.max(prior, h.dslLine), msg.boundaryConflict(h.kind, Math.min(prior, h.dslLine)), { anchor: h.kind });
      slots.set(h.kind, h.dslLine);
      continue;
    }
    const key = `${h.kind}:${h.line}`;
    const prior = slots.get(key);
    if (prior !== undefined) {
      conflict(Math.max(prior, h.dslLine), msg.anchorConflict(h.line, Math.min(prior, h.dslLine)), { anchorLine: h.line });
    }
    slots.set(key, h.dslLine);
    const r = coveringRange(ranges, h.line);
    if (r !== undefined) {
      conflict(Math.max(r.dslLine, h.dslLine), msg.anchorConflict(h.line, Math.min(r.dslLine, h.dslLine)), { anchorLine: h.line });
    }
  }
}

/** Resolves and validates `ops` against a file; the hunks keep the ops' order. */
export function resolvePlan(ops: readonly EditOp[], target: PlanTarget): Hunk[] {
  const hunks = ops.map((op) => toHunk(op, target)).filter((h): h is Hunk => h !== null);
  checkConflicts(hunks);
  return hunks;
}

/** The anchor lines of hunks (1-based, ascending, deduplicated; head/tail have none). */
export function anchorLines(hunks: readonly Hunk[], maxPerRange = Number.POSITIVE_INFINITY): number[] {
  const out = new Set<number>();
  for (const h of hunks) {
    if (h.kind === 'range') {
      if (h.end - h.start + 1 <= maxPerRange) for (let n = h.start; n <= h.end; n++) out.add(n);
      else {
        out.add(h.start);
        out.add(h.end);
      }
    } else if (h.kind === 'before' || h.kind === 'after') out.add(h.line);
  }
  return [...out].sort((a, b) => a - b);
}
