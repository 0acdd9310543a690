// What the navigation tools share: a file's hit lines shown as fs_read shows a window (the
// ¶path#TAG header, `N| text` lines cut at 200 columns, a gap marker between windows), recorded in
// the session history with those lines marked as seen, so fs_edit against that tag applies, merges
// or is refused exactly as after an fs_read.

import * as z from 'zod';
import { hitWindows } from '../../core/read/line-matches.js';
import { assembleContent, renderRanges, type LineSource } from '../../core/read/read-render.js';
import type { ReplyBudget } from '../../core/read/reply-budget.js';
import { formatHeader } from '../../core/text/tag.js';
import { splitLines } from '../../core/text/text-doc.js';
import { notUtf8 } from '../../core/messages/read.js';
import type { Engine } from '../engine.js';

/** A ReadResult with the lines that matched. */
export const HitResultSchema = z.object({
  path: z.string(),
  file_hash: z.string(),
  header: z.string(),
  content: z.string(),
  /** 1-based lines that matched (the content may show context lines around them). */
  hit_lines: z.array(z.number().int()),
  warnings: z.string().optional(),
});
export type HitResult = z.infer<typeof HitResultSchema>;

export interface HitFile {
  real: string;
  display: string;
  /** LF, BOM-less text. */
  text: string;
  tag: string;
  utf8: boolean;
}

/** The lines of an LF text as the range renderer takes them (a trailing newline adds no line). */
export function textLines(text: string): LineSource & { lines: string[] } {
  const { lines } = splitLines(text);
  return { lines, total: lines.length, line: (n) => lines[n - 1] ?? '' };
}

/**
 * Renders `hits` (sorted, 1-based) of `file` with `context` lines each side, records the text and
 * the lines shown, and returns the result; `notices` are appended to its content.
 */
export function taggedHits(engine: Engine, file: HitFile, src: LineSource, hits: readonly number[], context: number, budget: ReplyBudget, notices: readonly string[] = []): HitResult {
  const ranges = hitWindows(hits, context, src.total);
  const r = renderRanges(src, ranges, budget, { footer: false, alwaysTruncate: true });
  r.notices.push(...notices);
  if (engine.history.record(file.real, file.text, { tag: file.tag }) !== null) engine.history.markSeen(file.real, file.text, r.seen);
  const header = formatHeader(file.display, file.tag);
  const warnings = [...r.warnings, ...(file.utf8 ? [] : [notUtf8(file.display)])];
  return {
    path: file.display,
    file_hash: file.tag,
    header,
    content: assembleContent(header, r),
    hit_lines: [...hits],
    ...(warnings.length ? { warnings: warnings.join('\n') } : {}),
  };
}
