// Step 2 of the aider cascade, as the seed system runs it: the search block's lines equal a run of
// the file's whole lines once each side is normalized line by line (tabs in the indentation count as
// 2 spaces, inner runs of spaces and tabs become one space, trailing blanks are dropped); one such
// run replaces those WHOLE lines (their old trailing blanks go too), two are ambiguous. A search
// that is not whole lines (a fragment inside a line) falls back to the same comparison as a
// substring, indentation kept as it is (a different indentation is step 3's, which re-indents the
// replacement); that match is mapped back, so the replacement lands on exactly the characters it
// covers (a match inside a word or the indentation is treated as the exact step treats it).

import { blockLines, LineIndex, windowEdit } from './line-index.js';
import { matchEdit, matchStart } from './line-start.js';
import { MAX_LISTED_SPANS, type StepResult } from './types.js';

const SPACE = 0x20;
const TAB = 0x09;
const isBlank = (c: number) => c === SPACE || c === TAB;

interface Normalized {
  readonly text: string;
  /** For each character of `text`, where its source starts and ends in the original. */
  readonly from: Int32Array;
  readonly to: Int32Array;
}

/** The normalized form of `text`; with `map`, where each of its characters came from. */
function normalize(text: string, map: boolean): Normalized {
  const from = map ? new Int32Array(text.length + 1) : new Int32Array(0);
  const to = map ? new Int32Array(text.length + 1) : new Int32Array(0);
  // runs of kept characters are copied as slices (a file of megabytes makes no per-character strings)
  const parts: string[] = [];
  let k = 0;
  const keep = (a: number, b: number) => {
    parts.push(text.slice(a, b));
    if (map) for (let p = a; p < b; p++, k++) (from[k] = p), (to[k] = p + 1);
    else k += b - a;
  };
  const collapse = (a: number, b: number) => {
    parts.push(' ');
    if (map) (from[k] = a), (to[k] = b);
    k++;
  };
  let ls = 0;
  while (ls <= text.length) {
    let le = text.indexOf('\n', ls);
    const hasNl = le !== -1;
    if (!hasNl) le = text.length;
    let te = le;
    while (te > ls && isBlank(text.charCodeAt(te - 1))) te--;
    if (te > ls) {
      let p = ls;
      while (p < te && isBlank(text.charCodeAt(p))) p++;
      let run = ls; // indentation is kept as it is
      while (p < te) {
        if (isBlank(text.charCodeAt(p))) {
          let r = p;
          while (r < te && isBlank(text.charCodeAt(r))) r++;
          keep(run, p);
          collapse(p, r);
          run = p = r;
        } else p++;
      }
      keep(run, te);
    }
    if (!hasNl) break;
    keep(le, le + 1);
    ls = le + 1;
  }
  return { text: parts.join(''), from, to };
}

/** Exported for the tests: the normalized form of a text. */
export function normalizeWhitespace(text: string): string {
  return normalize(text, false).text;
}

/** A line as the whole-line comparison sees it: tabs in its indentation as 2 spaces, inner runs as one space, no trailing blanks. */
export function lineKey(line: string): string {
  const lead = /^[ \t]*/.exec(line)![0];
  const body = line.slice(lead.length).replace(/[ \t]+/g, ' ').replace(/ $/, '');
  return body === '' ? '' : lead.replace(/\t/g, '  ') + body;
}

/** 0-based first lines of every run of whole lines whose keys equal the search lines' keys. */
function wholeLineRuns(index: LineIndex, keys: readonly string[]): number[] {
  const n = keys.length;
  const found: number[] = [];
  const fileKeys: string[] = [];
  for (let k = 0; k < index.count; k++) fileKeys.push(lineKey(index.line(k)));
  for (let i = 0; i + n <= index.count; i++) {
    let j = 0;
    while (j < n && fileKeys[i + j] === keys[j]) j++;
    if (j === n) found.push(i);
  }
  return found;
}

export function whitespaceStep(text: string, search: string, replace: string): StepResult {
  const needle = normalize(search, false).text;
  // a search of blank lines has nothing left to anchor on
  if (needle.replace(/\n/g, '') === '') return { kind: 'none' };
  const index = new LineIndex(text);
  const keys = blockLines(search).map(lineKey);
  const runs = wholeLineRuns(index, keys);
  if (runs.length === 1) {
    const i = runs[0]!;
    return { kind: 'placed', placement: { method: 'whitespace', edit: windowEdit(index, i, keys.length, search, replace), span: index.windowSpan(i, keys.length) } };
  }
  if (runs.length > 1) return { kind: 'ambiguous', spans: runs.slice(0, MAX_LISTED_SPANS).map((i) => index.windowSpan(i, keys.length)) };
  const hay = normalize(text, true);
  const first = hay.text.indexOf(needle);
  if (first === -1) return { kind: 'none' };
  const region = (at: number) => ({ start: hay.from[at]!, end: hay.to[at + needle.length - 1]! });
  if (hay.text.indexOf(needle, first + 1) === -1) {
    const { start, end } = region(first);
    if (matchStart(text, start) === 'word') return { kind: 'none' };
    return { kind: 'placed', placement: { method: 'whitespace', edit: matchEdit(text, start, end, search, replace), span: index.span(start, end) } };
  }
  const spans = [];
  for (let at = first; at !== -1 && spans.length < MAX_LISTED_SPANS; at = hay.text.indexOf(needle, at + 1)) {
    const { start, end } = region(at);
    spans.push(index.span(start, end));
  }
  return { kind: 'ambiguous', spans };
}
