// Step 3 of the aider cascade: the search block's lines occur exactly once with every line's
// indentation shifted by the same amount (the block was quoted at another nesting depth), inner
// whitespace compared as step 2 compares it. Only whole lines match here. The replacement is
// re-indented by the same shift: a replacement line that starts with the search block's common
// indentation gets the file's indentation in its place; other lines are inserted as written.

import { blockLines, LineIndex, windowEdit } from './line-index.js';
import { reindent } from './line-start.js';
import { normalizeWhitespace } from './whitespace.js';
import { MAX_LISTED_SPANS, type StepResult } from './types.js';

const leading = (line: string) => /^[ \t]*/.exec(line)![0];
const blank = (line: string) => line.trim() === '';

/** The indentation every non-blank line starts with (that of the least indented), or null when they disagree. */
function commonIndent(lines: readonly string[]): string | null {
  let indent: string | null = null;
  for (const l of lines) {
    if (blank(l)) continue;
    const lead = leading(l);
    if (indent === null || lead.length < indent.length) indent = lead;
  }
  if (indent === null) return null;
  for (const l of lines) if (!blank(l) && !l.startsWith(indent)) return null;
  return indent;
}

export function indentationStep(text: string, search: string, replace: string): StepResult {
  const sLines = blockLines(search);
  const indent = commonIndent(sLines);
  if (indent === null) return { kind: 'none' };
  const rel = sLines.map((l) => (blank(l) ? null : normalizeWhitespace(l.slice(indent.length))));
  const j0 = rel.findIndex((r) => r !== null);
  const anchor = rel[j0]!;
  const anchorLead = leading(anchor);
  const anchorBody = anchor.slice(anchorLead.length);
  const index = new LineIndex(text);
  const n = sLines.length;
  const found: Array<{ i: number; shift: string }> = [];
  for (let k = j0; k < index.count; k++) {
    const line = normalizeWhitespace(index.line(k));
    const lead = leading(line);
    if (line.slice(lead.length) !== anchorBody || !lead.endsWith(anchorLead)) continue;
    const shift = lead.slice(0, lead.length - anchorLead.length);
    const i = k - j0;
    if (shift === indent || i + n > index.count) continue;
    let same = true;
    for (let j = 0; j < n && same; j++) {
      const want = rel[j];
      const have = index.line(i + j);
      same = want === null ? blank(have) : normalizeWhitespace(have) === shift + want;
    }
    if (same) found.push({ i, shift });
  }
  if (found.length === 0) return { kind: 'none' };
  if (found.length > 1) return { kind: 'ambiguous', spans: found.slice(0, MAX_LISTED_SPANS).map((f) => index.windowSpan(f.i, n)) };
  const { i, shift } = found[0]!;
  const edit = windowEdit(index, i, n, search, reindent(replace, indent, shift));
  return { kind: 'placed', placement: { method: 'relative-indentation', edit, span: index.windowSpan(i, n) } };
}
