// The unified diff reported with every changed file: 3 lines of context, computed on LF text.

import { structuredPatch } from 'diff';

export const DIFF_CONTEXT_LINES = 3;

/** A unified diff of `before` → `after` labelled with `path`, or undefined when they are equal. */
export function unifiedDiff(path: string, before: string, after: string): string | undefined {
  if (before === after) return undefined;
  const patch = structuredPatch(path, path, before, after, '', '', { context: DIFF_CONTEXT_LINES });
  const out = [`--- ${path}`, `+++ ${path}`];
  for (const h of patch.hunks) {
    // As GNU diff: an empty side names the line before the change (0 at the top of the file).
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    out.push(...h.lines);
  }
  return out.join('\n') + '\n';
}

/** The first 1-based line at which `before` and `after` differ (in `after`), or undefined. */
export function firstChangedLine(before: string, after: string): number | undefined {
  if (before === after) return undefined;
  const a = before.split('\n');
  const b = after.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return Math.min(i, Math.max(b.length - 1, 0)) + 1;
}
