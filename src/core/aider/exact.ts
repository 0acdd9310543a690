// Step 1 of the aider cascade: the search text occurs exactly once, as a substring of the file
// (overlapping occurrences count). Two or more occurrences are ambiguous: the cascade stops there.
// One occurrence inside a word is not a quote of that text (later steps weigh it); one inside the
// indentation is placed as line-start.ts says.

import { LineIndex } from './line-index.js';
import { matchEdit, matchStart } from './line-start.js';
import { MAX_LISTED_SPANS, type LineSpan, type StepResult } from './types.js';

/** LineIndex.span(start, end) of a non-empty `text`, counting the newlines before `end` instead of indexing every line. */
export function spanByCount(text: string, start: number, end: number): LineSpan {
  const last = Math.max(start, end - 1);
  let startLine = 1;
  let endLine = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < last; i = text.indexOf('\n', i + 1)) {
    if (i < start) startLine++;
    endLine++;
  }
  return { startLine, endLine };
}

export function exactStep(text: string, search: string, replace: string): StepResult {
  const first = text.indexOf(search);
  if (first === -1) return { kind: 'none' };
  if (text.indexOf(search, first + 1) === -1) {
    if (matchStart(text, first) === 'word') return { kind: 'none' };
    const end = first + search.length;
    // one placement: its lines counted up to it (the whole text is indexed only to list several)
    return { kind: 'placed', placement: { method: 'exact', edit: matchEdit(text, first, end, search, replace), span: spanByCount(text, first, end) } };
  }
  const index = new LineIndex(text);
  const spans = [];
  for (let at = first; at !== -1 && spans.length < MAX_LISTED_SPANS; at = text.indexOf(search, at + 1)) {
    spans.push(index.span(at, at + search.length));
  }
  return { kind: 'ambiguous', spans };
}
