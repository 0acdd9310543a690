// Step 1 of the aider cascade: the search text occurs exactly once, as a substring of the file
// (overlapping occurrences count). Two or more occurrences are ambiguous: the cascade stops there.
// One occurrence inside a word is not a quote of that text (later steps weigh it); one inside the
// indentation is placed as line-start.ts says.

import { LineIndex } from './line-index.js';
import { matchEdit, matchStart } from './line-start.js';
import { MAX_LISTED_SPANS, type StepResult } from './types.js';

export function exactStep(text: string, search: string, replace: string): StepResult {
  const first = text.indexOf(search);
  if (first === -1) return { kind: 'none' };
  const index = new LineIndex(text);
  if (text.indexOf(search, first + 1) === -1) {
    if (matchStart(text, first) === 'word') return { kind: 'none' };
    const end = first + search.length;
    return { kind: 'placed', placement: { method: 'exact', edit: matchEdit(text, first, end, search, replace), span: index.span(first, end) } };
  }
  const spans = [];
  for (let at = first; at !== -1 && spans.length < MAX_LISTED_SPANS; at = text.indexOf(search, at + 1)) {
    spans.push(index.span(at, at + search.length));
  }
  return { kind: 'ambiguous', spans };
}
