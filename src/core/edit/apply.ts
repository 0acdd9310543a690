// The one function that applies an edit: resolved hunks onto the lines as read. Line numbers never
// shift while hunks apply, because every hunk is bucketed at its anchor in the original numbering
// and the output is built in one pass (the same result as applying bottom-up, in linear time):
// per line, its `before` inserts, then its replacement or the kept line, then its `after` inserts;
// head rows first, tail rows last. The output is a list of pieces (kept line i, or new text), so
// `materialize` can give every kept line its original bytes and terminator.

import { HashlineError } from '../errors/errors.js';
import * as msg from '../messages/edit.js';
import { hasEscapedBytes } from '../text/text-codec.js';
import type { TextDoc } from '../text/text-doc.js';
import type { Hunk, Piece } from './ops.js';

/** The lines of an LF text (a trailing newline ends the last line; it adds none). */
export function textLines(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}

/**
 * Applies validated hunks (see plan.ts) to `lines`. Refuses to replace or delete a line holding
 * bytes that are not UTF-8 (the agent saw U+FFFD there and cannot send the bytes back).
 */
export function applyHunks(lines: readonly string[], hunks: readonly Hunk[]): Piece[] {
  const n = lines.length;
  const before = new Map<number, readonly string[]>();
  const after = new Map<number, readonly string[]>();
  const ranges = new Map<number, Extract<Hunk, { kind: 'range' }>>();
  let head: readonly string[] = [];
  let tail: readonly string[] = [];
  for (const h of hunks) {
    switch (h.kind) {
      case 'head':
        head = h.rows;
        break;
      case 'tail':
        tail = h.rows;
        break;
      case 'before':
      case 'after':
        if (h.line < 1 || h.line > n) throw new HashlineError('edit_out_of_range', msg.lineDoesNotExist(h.line, n));
        (h.kind === 'before' ? before : after).set(h.line - 1, h.rows);
        break;
      case 'range':
        if (h.start < 1 || h.end < h.start || h.end > n) throw new HashlineError('edit_out_of_range', msg.lineDoesNotExist(h.end, n));
        for (let i = h.start - 1; i < h.end; i++) {
          if (hasEscapedBytes(lines[i]!)) {
            throw new HashlineError('non_utf8_line', msg.nonUtf8Line(i + 1), { details: { line: i + 1, dslLine: h.dslLine } });
          }
        }
        ranges.set(h.start - 1, h);
        break;
    }
  }
  const out: Piece[] = [];
  const push = (rows: readonly string[] | undefined): void => {
    if (rows) for (const text of rows) out.push({ text });
  };
  push(head);
  // the lines where a hunk is anchored, in order: the lines between them are kept in one plain loop
  const anchors = [...new Set([...before.keys(), ...after.keys(), ...ranges.keys()])].sort((a, b) => a - b);
  let at = 0;
  let i = 0;
  while (i < n) {
    while (at < anchors.length && anchors[at]! < i) at++;
    const stop = at < anchors.length ? anchors[at]! : n;
    for (; i < stop; i++) out.push({ src: i });
    if (i >= n) break;
    at++;
    push(before.get(i));
    const r = ranges.get(i);
    if (r !== undefined) {
      push(r.rows);
      const next = r.end;
      // An insert anchored inside a replaced range was refused by the planner; guard it here too.
      for (let k = i; k < next; k++) {
        if ((k > i && before.has(k)) || after.has(k)) throw new HashlineError('edit_overlap', msg.anchorConflict(k + 1, r.dslLine));
      }
      i = next;
      continue;
    }
    out.push({ src: i });
    push(after.get(i));
    i++;
  }
  push(tail);
  return out;
}

/** The edited lines as strings. */
export function piecesToLines(lines: readonly string[], pieces: readonly Piece[]): string[] {
  return pieces.map((p) => ('src' in p ? lines[p.src]! : p.text));
}

/** True when the pieces are exactly the original lines in order. */
export function isIdentity(n: number, pieces: readonly Piece[]): boolean {
  return pieces.length === n && pieces.every((p, i) => 'src' in p && p.src === i);
}

/**
 * The edited document: kept lines keep their content and terminator byte for byte, new lines get
 * `doc.eol`. The last line ends as the original's last line did: a file without a trailing newline
 * keeps having none (even when the edit appends lines); an empty file gets one per new line.
 */
export function materialize(doc: TextDoc, pieces: readonly Piece[]): TextDoc {
  const n = doc.lines.length;
  const finalEnding = n === 0 ? doc.eol : doc.endings[n - 1]!;
  const lines: string[] = new Array<string>(pieces.length);
  const endings: string[] = new Array<string>(pieces.length);
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k]!;
    const own = 'src' in p ? doc.endings[p.src]! : '';
    lines[k] = 'src' in p ? doc.lines[p.src]! : p.text;
    if (k === pieces.length - 1) endings[k] = finalEnding === '' ? '' : own || doc.eol;
    else endings[k] = own || doc.eol;
  }
  if (pieces.length > 0 && lines[pieces.length - 1] === '' && endings[pieces.length - 1] === '') {
    // An empty last line without a terminator is no line (the line before it already ends).
    lines.pop();
    endings.pop();
  }
  return { bom: doc.bom, lines, endings, eol: doc.eol, utf8: doc.utf8 };
}
