// Where a substring match begins in its line, for the steps that match substrings (exact,
// whitespace) and the fuzzy step's trimmed prefix. A match inside a word (`unction f` in
// `function f`) is a quote that lost its first characters, not a quote of that text: it is never
// placed as it stands. A one-line quote matched inside the indentation (`foo();` in `    foo();`)
// was quoted at another depth: its replacement is re-indented as the indentation step does, so a
// replacement of several lines keeps the file's depth instead of falling back to column 0. (Blank
// lines after that one line say nothing about depth; a non-blank one, matched as it stands, says
// the quote's later lines are at the file's depth, so the replacement is then taken as written.)

import type { TextEdit } from '../text/text-edits.js';
import { blockLines } from './line-index.js';

/** `line`: at a line's start; `indent`: after only blanks; `word`: inside a word; `inside`: after other text. */
export type MatchStart = 'line' | 'indent' | 'word' | 'inside';

const WORD = /[\p{L}\p{N}_$]/u;
const blank = (line: string) => line.trim() === '';
const leading = (line: string) => /^[ \t]*/.exec(line)![0];

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

export function matchStart(text: string, start: number): MatchStart {
  const ls = lineStartOf(text, start);
  if (ls === start) return 'line';
  if (/^[ \t]*$/.test(text.slice(ls, start))) return 'indent';
  return WORD.test(text[start - 1]!) && WORD.test(text[start] ?? '') ? 'word' : 'inside';
}

/** `replace` with `from` indentation swapped for `to` on every non-blank line that starts with it. */
export function reindent(replace: string, from: string, to: string): string {
  return replace
    .split('\n')
    .map((l) => (!blank(l) && l.startsWith(from) ? to + l.slice(from.length) : l))
    .join('\n');
}

/**
 * The edit of a match [start, end) of `search` in `text`. A search of one non-blank line (blank
 * lines may follow) matched inside the indentation up to the end of its line takes the whole line,
 * its replacement re-indented by the indentation it left out; any other match is replaced literally.
 */
export function matchEdit(text: string, start: number, end: number, search: string, replace: string): TextEdit {
  const literal = { start, end, text: replace };
  if (matchStart(text, start) !== 'indent' || !blockLines(search).slice(1).every(blank)) return literal;
  const atLineEnd = text[end - 1] === '\n' || /^[ \t]*(\n|$)/.test(text.slice(end, text.indexOf('\n', end) + 1 || text.length));
  if (!atLineEnd) return literal;
  const ls = lineStartOf(text, start);
  const lead = leading(search);
  return { start: ls, end, text: reindent(replace, lead, text.slice(ls, start) + lead) };
}
