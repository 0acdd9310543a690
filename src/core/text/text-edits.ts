// Replacements of ranges of a text, as data: one audited function applies them, and overlapping or
// out-of-range edits are a coded error, never skipped. Offsets are UTF-16 code units (JavaScript
// string indices, as ast-grep's napi positions are).

import { HashlineError } from '../errors/errors.js';

/** A replacement of [start, end) (UTF-16 code units) by `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Applies non-overlapping edits sorted by start; overlapping or out-of-range edits are a coded error. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let pos = 0;
  for (const e of edits) {
    if (e.start < pos || e.end < e.start || e.end > text.length) {
      throw new HashlineError('edit_overlap', `internal: edit [${e.start}, ${e.end}) overlaps or is out of range`, { details: { start: e.start, end: e.end } });
    }
    out += text.slice(pos, e.start) + e.text;
    pos = e.end;
  }
  return out + text.slice(pos);
}
