// The diff the console shows between a version and its predecessor, as data: hunks of numbered lines
// (the page draws them unified or side by side), the counts of added and removed lines, and flags
// for what was left out. Pure: texts in, model out. Computed with the `diff` package on the LF
// texts the history keeps; a pathological pair (too many edits, too slow) is reported, not drawn.

import { diffArrays, structuredPatch } from 'diff';

export interface DiffLine {
  /** ' ' context, '-' removed, '+' added. */
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  /** 1-based line numbers in the old and the new text (absent on the side the line is not in). */
  readonly old?: number;
  readonly new?: number;
}

export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: DiffLine[];
}

export interface VersionDiff {
  readonly hunks: DiffHunk[];
  readonly added: number;
  readonly removed: number;
  /** Lines were left out past `maxLines`. */
  readonly truncated: boolean;
  /** The texts differ too much to diff within the limits; no hunks. */
  readonly tooComplex: boolean;
}

export interface DiffLimits {
  context: number;
  /** Diff lines returned at most. */
  maxLines: number;
  /** Edits beyond this many make the pair too complex. */
  maxEditLength: number;
  /** Milliseconds one diff may take. */
  timeoutMs: number;
}

export const DIFF_LIMITS: DiffLimits = { context: 3, maxLines: 5000, maxEditLength: 20_000, timeoutMs: 1500 };

export interface LineCounts {
  readonly added: number;
  readonly removed: number;
}

/** The hunks between two LF texts. */
export function diffVersions(before: string, after: string, limits: DiffLimits = DIFF_LIMITS): VersionDiff {
  if (before === after) return { hunks: [], added: 0, removed: 0, truncated: false, tooComplex: false };
  const patch = structuredPatch('a', 'b', before, after, '', '', { context: limits.context, maxEditLength: limits.maxEditLength, timeout: limits.timeoutMs });
  if (patch === undefined) return { hunks: [], added: 0, removed: 0, truncated: false, tooComplex: true };
  const hunks: DiffHunk[] = [];
  let added = 0;
  let removed = 0;
  let budget = limits.maxLines;
  let truncated = false;
  for (const h of patch.hunks) {
    let o = h.oldStart;
    let n = h.newStart;
    const lines: DiffLine[] = [];
    for (const raw of h.lines) {
      const kind = raw[0];
      if (kind !== ' ' && kind !== '-' && kind !== '+') continue; // "\ No newline at end of file"
      const text = raw.slice(1);
      if (kind === '-') removed++;
      if (kind === '+') added++;
      const line: DiffLine = kind === ' ' ? { kind, text, old: o++, new: n++ } : kind === '-' ? { kind, text, old: o++ } : { kind, text, new: n++ };
      if (budget > 0) {
        lines.push(line);
        budget--;
      } else truncated = true;
    }
    if (lines.length > 0) hunks.push({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines });
  }
  return { hunks, added, removed, truncated, tooComplex: false };
}

/** Lines with their terminators (a last line without one stays as it is). */
const linesOf = (text: string): string[] => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * Added and removed line counts only, or null when the pair is too complex for `maxEditLength`.
 * The common head and tail are set aside first (a version usually differs from its predecessor in
 * one region), so the diff proper runs on the changed middle.
 */
export function countChanges(before: string, after: string, maxEditLength = 2000): LineCounts | null {
  if (before === after) return { added: 0, removed: 0 };
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length === 0 || midB.length === 0) return { added: midB.length, removed: midA.length };
  const changes = diffArrays(midA, midB, { maxEditLength });
  if (changes === undefined) return null;
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (c.added) added += c.count ?? c.value.length;
    else if (c.removed) removed += c.count ?? c.value.length;
  }
  return { added, removed };
}
