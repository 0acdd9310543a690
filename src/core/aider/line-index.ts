// Lines of an LF text by offset, for the line-based steps of the aider cascade: where each line
// starts and ends, which line holds an offset, and the edit that replaces a window of whole lines
// with a block's replacement (keeping or dropping the window's final newline as the search did).

import { lineAt, lineStarts } from '../text/line-sources.js';
import type { TextEdit } from '../text/text-edits.js';
import type { LineSpan } from './types.js';

export class LineIndex {
  readonly starts: readonly number[];

  constructor(readonly text: string) {
    this.starts = lineStarts(text);
  }

  get count(): number {
    return this.starts.length;
  }

  /** Offset of the first character of line `i` (0-based). */
  start(i: number): number {
    return this.starts[i]!;
  }

  /** Offset just past the content of line `i` (its `\n`, or the end of the text). */
  end(i: number): number {
    const next = this.starts[i + 1];
    return next === undefined ? (this.text.endsWith('\n') ? this.text.length - 1 : this.text.length) : next - 1;
  }

  hasNewline(i: number): boolean {
    return i + 1 < this.starts.length || this.text.endsWith('\n');
  }

  line(i: number): string {
    return this.text.slice(this.start(i), this.end(i));
  }

  /** 0-based line holding `offset`. */
  lineOf(offset: number): number {
    return lineAt(this.starts, offset);
  }

  /** 1-based lines covered by [start, end). */
  span(start: number, end: number): LineSpan {
    if (this.count === 0) return { startLine: 1, endLine: 1 };
    const first = this.lineOf(start);
    return { startLine: first + 1, endLine: this.lineOf(Math.max(start, end - 1)) + 1 };
  }

  /** 1-based lines of the window of `m` lines at line `i`. */
  windowSpan(i: number, m: number): LineSpan {
    return { startLine: i + 1, endLine: i + m };
  }
}

/** The lines of a search block: one final newline does not make an empty last line. */
export function blockLines(search: string): string[] {
  return (search.endsWith('\n') ? search.slice(0, -1) : search).split('\n');
}

/**
 * The edit replacing lines [i, i + m) with `replace`. A search ending in a newline takes the
 * window's newline with it (the replacement brings its own); at the end of a file without a final
 * newline the replacement's final newline is dropped, so a patch never adds one there.
 */
export function windowEdit(index: LineIndex, i: number, m: number, search: string, replace: string): TextEdit {
  const last = i + m - 1;
  const start = index.start(i);
  const contentEnd = index.end(last);
  if (!search.endsWith('\n')) return { start, end: contentEnd, text: replace };
  if (index.hasNewline(last)) return { start, end: contentEnd + 1, text: replace };
  return { start, end: contentEnd, text: replace.endsWith('\n') ? replace.slice(0, -1) : replace };
}
