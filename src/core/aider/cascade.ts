// The aider cascade: places one search/replace block in an LF text. The enabled matchers run in
// order (exact → whitespace → relative-indentation → diff-match-patch); the first that finds
// exactly one region places the block, and the first that finds several stops the cascade as
// ambiguous (a later, looser step never overrides an earlier one's doubt). An empty search appends.
// When no enabled matcher places the block, the disabled ones are asked only to say whether one
// would have (aider_matcher_disabled), and the region most like the search is reported. Pure: text
// in, placement out; the replacement is inserted literally.

import type { AiderMatcher } from '../config/config-schema.js';
import { lfText } from '../text/text-doc.js';
import { exactStep } from './exact.js';
import { fuzzyStep, type FuzzyResult } from './fuzzy.js';
import { indentationStep } from './indentation.js';
import { LineIndex } from './line-index.js';
import type { AiderBlock, CascadeOutcome, StepResult } from './types.js';
import { whitespaceStep } from './whitespace.js';

const STEPS: ReadonlyArray<readonly [AiderMatcher, (text: string, search: string, replace: string) => StepResult | FuzzyResult]> = [
  ['exact', exactStep],
  ['whitespace', whitespaceStep],
  ['relative-indentation', indentationStep],
  ['diff-match-patch', fuzzyStep],
];

function append(text: string, replace: string): CascadeOutcome {
  const sep = text !== '' && !text.endsWith('\n') ? '\n' : '';
  const start = text.length;
  // the appended text starts on the line after the last one
  const first = new LineIndex(text).count + 1;
  const added = replace.split('\n').length - (replace.endsWith('\n') ? 1 : 0);
  return { ok: true, placement: { method: 'append', edit: { start, end: start, text: sep + replace }, span: { startLine: first, endLine: first + added - 1 } } };
}

/**
 * Places `block` in `text` (LF) with the `enabled` matchers. Search and replacement are taken with
 * their line endings made LF.
 */
export function placeBlock(text: string, block: AiderBlock, enabled: readonly AiderMatcher[]): CascadeOutcome {
  const search = lfText(block.search);
  const replace = lfText(block.replace);
  if (search.trim() === '') return replace.trim() === '' ? { ok: false, failure: 'empty' } : append(text, replace);
  let fuzzy: FuzzyResult | undefined;
  for (const [name, step] of STEPS) {
    if (!enabled.includes(name)) continue;
    const r = step(text, search, replace);
    if (name === 'diff-match-patch') fuzzy = r as FuzzyResult;
    if (r.kind === 'placed') return { ok: true, placement: r.placement };
    if (r.kind === 'ambiguous') return { ok: false, failure: 'ambiguous', method: name, spans: r.spans, ...(r.similarity === undefined ? {} : { similarity: r.similarity }) };
  }
  for (const [name, step] of STEPS) {
    if (enabled.includes(name)) continue;
    const r = step(text, search, replace);
    if (name === 'diff-match-patch') fuzzy = r as FuzzyResult;
    if (r.kind === 'placed') return { ok: false, failure: 'disabled', method: name, span: r.placement.span };
  }
  return {
    ok: false,
    failure: 'no_match',
    ...(fuzzy?.closest ? { closest: fuzzy.closest } : {}),
    ...(fuzzy?.note ? { note: fuzzy.note } : {}),
  };
}
