// The diff reported for a rewrite of a whole text (a structural rewrite): read off the line sources
// of its edits (core/text/line-sources.ts) in one linear pass, or, when no sources fit, from a generic
// line diff. Computed on LF text, like every diff hashline reports.

import { pieceDiff } from '../edit/piece-diff.js';
import { lfText, splitLines } from './text-doc.js';
import { firstChangedLine, unifiedDiff } from './unified-diff.js';

export interface RewriteDiff {
  /** The unified diff, or undefined when the LF texts are equal. */
  readonly diff: string | undefined;
  /** 1-based line of the new text where the first change is. */
  readonly firstChangedLine: number | undefined;
}

/**
 * The diff of `before` → `after` (decoded texts in their own line endings) labelled `label`.
 * `sources`: for each line of `after`, the line of `before` it copies or -1.
 */
export function rewriteDiff(label: string, before: string, after: string, sources?: Int32Array): RewriteDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  if (sources === undefined || sources.length !== b.lines.length) {
    const x = lfText(before);
    const y = lfText(after);
    return { diff: unifiedDiff(label, x, y), firstChangedLine: firstChangedLine(x, y) };
  }
  const pieces = Array.from(sources, (src, k) => (src >= 0 ? { src } : { text: b.lines[k]! }));
  const side = (s: { lines: string[]; endings: string[] }) => ({ lines: s.lines, finalNewline: (s.endings[s.endings.length - 1] ?? '') !== '' });
  return pieceDiff(label, side(a), pieces, side(b));
}
