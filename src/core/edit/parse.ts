// The edit DSL parser: `ops` text → an EditPlan. It only reads; it never looks at the file.
// Diagnostics are coded `edit_parse_error`s that name the 1-based line of the `ops` text.

import { HashlineError } from '../errors/errors.js';
import { hasLoneSurrogate } from '../text/text-codec.js';
import * as msg from '../messages/edit.js';
import type { EditOp, EditPlan } from './ops.js';

const SEP = String.raw`\s*(?:\.\.|-|…)\s*`;
const BLOCK_HEADER = /^(replace|delete)\s+block\s+(\d+)\s*(:?)$/i;
const RANGE_HEADER = new RegExp(String.raw`^(replace|delete)\s+(\d+)(?:${SEP}(\d+))?\s*(:?)$`, 'i');
const INSERT_LINE_HEADER = /^insert\s+(before|after)\s+(\d+)\s*(:?)$/i;
const INSERT_EDGE_HEADER = /^insert\s+(head|tail)\s*(:?)$/i;
const UNIFIED_HUNK = /^@@\s*-\d+(?:,\d+)?\s+\+\d+(?:,\d+)?\s*@@/;
const BARE_NUMBER = /^(\d+)\s*:?$/;
const BARE_RANGE = new RegExp(String.raw`^(\d+)${SEP}(\d+)\s*:?$`);
/** A copied `¶path#TAG` header before the first hunk (the tag that counts is `file_hash`). */
const COPIED_HEADER = /^¶\S.*#[0-9A-Fa-f]{4}$/;

function fail(dslLine: number, message: string): never {
  throw new HashlineError('edit_parse_error', msg.atDslLine(dslLine, message), { details: { dslLine } });
}

function lineNumber(raw: string, dslLine: number): number {
  if (/^0+$/.test(raw)) fail(dslLine, msg.lineNumberNotPositive(raw));
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) fail(dslLine, msg.lineNumberTooLarge(raw));
  return n;
}

type Pending =
  | { kind: 'replace'; start: number; end: number; rows: string[]; dslLine: number }
  | { kind: 'insert_before' | 'insert_after'; line: number; rows: string[]; dslLine: number }
  | { kind: 'insert_head' | 'insert_tail'; rows: string[]; dslLine: number }
  | { kind: 'replace_block'; line: number; rows: string[]; dslLine: number }
  | { kind: 'delete' | 'delete_block'; dslLine: number };

type Body = Exclude<Pending, { kind: 'delete' | 'delete_block' }>;

function bodyOf(p: Pending | null): Body | null {
  if (p === null || p.kind === 'delete' || p.kind === 'delete_block') return null;
  return p as Body;
}

function emptyBodyMessage(p: Body): string {
  if (p.kind === 'replace') return msg.EMPTY_REPLACE;
  if (p.kind === 'replace_block') return msg.EMPTY_REPLACE_BLOCK;
  return msg.EMPTY_INSERT;
}

/** Parses a header line (already trimmed) into a pending hunk, or returns null when it is none. */
function parseHeader(text: string, dslLine: number, out: EditOp[]): Pending | null {
  let m = BLOCK_HEADER.exec(text);
  if (m) {
    const line = lineNumber(m[2]!, dslLine);
    if (m[1]!.toLowerCase() === 'replace') return { kind: 'replace_block', line, rows: [], dslLine };
    if (m[3] === ':') fail(dslLine, msg.DELETE_BLOCK_TAKES_NO_BODY);
    out.push({ kind: 'delete_block', line, dslLine });
    return { kind: 'delete_block', dslLine };
  }
  m = RANGE_HEADER.exec(text);
  if (m) {
    const start = lineNumber(m[2]!, dslLine);
    const end = m[3] === undefined ? start : lineNumber(m[3], dslLine);
    if (end < start) fail(dslLine, msg.rangeEndsBeforeStart(start, end));
    if (m[1]!.toLowerCase() === 'replace') return { kind: 'replace', start, end, rows: [], dslLine };
    if (m[4] === ':') fail(dslLine, msg.DELETE_TAKES_NO_BODY);
    out.push({ kind: 'delete', start, end, dslLine });
    return { kind: 'delete', dslLine };
  }
  m = INSERT_LINE_HEADER.exec(text);
  if (m) {
    const kind = m[1]!.toLowerCase() === 'before' ? 'insert_before' : 'insert_after';
    return { kind, line: lineNumber(m[2]!, dslLine), rows: [], dslLine };
  }
  m = INSERT_EDGE_HEADER.exec(text);
  if (m) return { kind: m[1]!.toLowerCase() === 'head' ? 'insert_head' : 'insert_tail', rows: [], dslLine };
  return null;
}

/** Parses the `ops` text of one edit target. Throws `edit_parse_error` with the offending line. */
export function parseEditOps(source: string): EditPlan {
  const lines = source.replace(/^\uFEFF/, '').split('\n');
  const ops: EditOp[] = [];
  const warnings: string[] = [];
  let pending: Pending | null = null;
  /** Blank and `#` lines seen since the last body row: body content only if a body row follows. */
  let deferred: Array<{ text: string; blank: boolean }> = [];
  let autoPrefixed = false;

  const close = (): void => {
    deferred = [];
    if (pending === null) return;
    const p = bodyOf(pending);
    pending = null;
    if (p === null) return;
    if (p.rows.length === 0) fail(p.dslLine, emptyBodyMessage(p));
    ops.push(p as EditOp);
  };
  const pushRow = (p: Body, row: string, dslLine: number): void => {
    if (hasLoneSurrogate(row)) fail(dslLine, msg.loneSurrogateRow());
    for (const d of deferred) {
      if (!d.blank) autoPrefixed = true;
      p.rows.push(d.blank ? '' : d.text);
    }
    deferred = [];
    p.rows.push(row);
  };

  for (let i = 0; i < lines.length; i++) {
    const dslLine = i + 1;
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const open = bodyOf(pending);
    if (open && raw.startsWith('+')) {
      pushRow(open, raw.slice(1), dslLine);
      continue;
    }
    const text = raw.trim();
    if (text === '') {
      deferred.push({ text: raw, blank: true });
      continue;
    }
    if (text.startsWith('***')) {
      const word = text.replace(/^\*+\s*/, '').toLowerCase();
      if (word === 'begin patch') continue;
      if (word === 'end patch' || word === 'abort') break;
      fail(dslLine, msg.applyPatchSentinel(text));
    }
    if (pending === null && ops.length === 0 && COPIED_HEADER.test(text)) continue;
    const headerOps: EditOp[] = [];
    const header = parseHeader(text, dslLine, headerOps);
    if (header !== null) {
      close();
      ops.push(...headerOps);
      pending = header;
      continue;
    }
    if (text.startsWith('#')) {
      deferred.push({ text: raw, blank: false });
      continue;
    }
    if (raw.startsWith('-')) fail(dslLine, msg.MINUS_ROW);
    if (UNIFIED_HUNK.test(text)) fail(dslLine, msg.UNIFIED_DIFF_HEADER);
    if (text.startsWith('@@')) fail(dslLine, msg.bracketedHunkHeader(text));
    let m = BARE_NUMBER.exec(text);
    if (m) fail(dslLine, msg.bareNumberHeader(m[1]!));
    m = BARE_RANGE.exec(text);
    if (m) fail(dslLine, msg.bareRangeHeader(m[1]!, m[2]!));
    if (open) {
      pushRow(open, raw, dslLine);
      autoPrefixed = true;
      continue;
    }
    if (pending !== null) {
      fail(dslLine, pending.kind === 'delete_block' ? msg.DELETE_BLOCK_TAKES_NO_BODY : msg.DELETE_TAKES_NO_BODY);
    }
    fail(dslLine, msg.payloadWithoutHeader(raw));
  }
  close();
  if (ops.length === 0) fail(1, msg.NO_OPERATIONS);
  if (autoPrefixed) warnings.push(msg.AUTO_PREFIXED);
  return { ops, warnings };
}
