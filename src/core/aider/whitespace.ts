// Step 2 of the aider cascade: the search text occurs exactly once once both sides are
// whitespace-normalized: inside each line runs of spaces and tabs become one space and trailing
// whitespace is dropped, while indentation (the whitespace a line starts with) must match as it is
// (a different indentation is step 3's, which re-indents the replacement). The match is mapped back
// to the original text, so the replacement lands on exactly the characters the normalized match
// covers (a match inside a word or the indentation is treated as the exact step treats it).

import { LineIndex } from './line-index.js';
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

export function whitespaceStep(text: string, search: string, replace: string): StepResult {
  const needle = normalize(search, false).text;
  // a search of blank lines has nothing left to anchor on
  if (needle.replace(/\n/g, '') === '') return { kind: 'none' };
  const hay = normalize(text, true);
  const first = hay.text.indexOf(needle);
  if (first === -1) return { kind: 'none' };
  const index = new LineIndex(text);
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
