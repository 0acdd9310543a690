// The diff reported for a rewrite of a whole text (a structural rewrite): read off the line sources
// of its edits (core/text/line-sources.ts) in one linear pass, or, when no sources fit, from a generic
// line diff. Computed on LF text, like every diff hashline reports. The lines both texts share at
// their ends (found on the characters, then on line starts) are not split out: only the changed part
// and its context are, and the diff is numbered as that of the whole texts.

import { diffPass, pieceDiff } from '../edit/piece-diff.js';
import type { Piece } from '../edit/ops.js';
import { lineStarts } from './line-sources.js';
import { lfText, splitLines } from './text-doc.js';
import { DIFF_CONTEXT_LINES, firstChangedLine, unifiedDiff } from './unified-diff.js';

export interface RewriteDiff {
  /** The unified diff, or undefined when the LF texts are equal. */
  readonly diff: string | undefined;
  /** 1-based line of the new text where the first change is. */
  readonly firstChangedLine: number | undefined;
}

/** Characters compared at once while looking for the shared ends. */
const STRIDE = 512;

/** How many leading characters `a` and `b` share. */
function sharedHead(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + STRIDE <= n && a.slice(i, i + STRIDE) === b.slice(i, i + STRIDE)) i += STRIDE;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How many trailing characters `a` and `b` share, at most `most`. */
function sharedTail(a: string, b: string, most: number): number {
  let j = 0;
  while (j + STRIDE <= most && a.slice(a.length - j - STRIDE, a.length - j) === b.slice(b.length - j - STRIDE, b.length - j)) j += STRIDE;
  while (j < most && a.charCodeAt(a.length - 1 - j) === b.charCodeAt(b.length - 1 - j)) j++;
  return j;
}

const endsLine = (text: string) => text.length > 0 && (text.endsWith('\n') || text.endsWith('\r'));

/**
 * The diff from the part of the texts between the lines they keep at both ends (each kept line
 * copied to its own place by `sources`, with the same characters and terminator), with context + 1
 * kept lines each side; undefined when that saves little or a line of the part copies one outside.
 */
function windowDiff(label: string, before: string, after: string, sources: Int32Array): RewriteDiff | undefined {
  const sa = lineStarts(before);
  const sb = lineStarts(after);
  const na = sa.length;
  const nb = sb.length;
  if (sources.length !== nb) return undefined;
  const endA = (i: number) => (i + 1 < na ? sa[i + 1]! : before.length);
  const endB = (k: number) => (k + 1 < nb ? sb[k + 1]! : after.length);
  const cp = sharedHead(before, after);
  const cs = sharedTail(before, after, Math.min(before.length, after.length) - cp);
  let head = 0;
  while (head < na && head < nb && sources[head] === head && endA(head) === endB(head) && endA(head) <= cp) head++;
  let tail = 0;
  for (; tail < na - head && tail < nb - head; tail++) {
    const i = na - 1 - tail;
    const k = nb - 1 - tail;
    const fromEnd = before.length - sa[i]!;
    if (sources[k] !== i || fromEnd !== after.length - sb[k]! || fromEnd > cs) break;
  }
  const margin = DIFF_CONTEXT_LINES + 1;
  const skipHead = Math.max(0, head - margin);
  const skipTail = Math.max(0, tail - margin);
  if (skipHead + skipTail < 2 * margin) return undefined;
  const endOld = na - skipTail;
  const endNew = nb - skipTail;
  const a = splitLines(before.slice(sa[skipHead] ?? 0, skipTail > 0 ? sa[endOld]! : before.length));
  const b = splitLines(after.slice(sb[skipHead] ?? 0, skipTail > 0 ? sb[endNew]! : after.length));
  const pieces: Piece[] = [];
  for (let k = skipHead; k < endNew; k++) {
    const src = sources[k]!;
    if (src < 0) pieces.push({ text: b.lines[k - skipHead]! });
    else if (src < skipHead || src >= endOld) return undefined;
    else pieces.push({ src: src - skipHead });
  }
  return diffPass(
    label,
    { lines: a.lines, finalNewline: skipTail > 0 || endsLine(before) },
    pieces,
    { lines: b.lines, finalNewline: skipTail > 0 || endsLine(after) },
    DIFF_CONTEXT_LINES,
    { oldStart: skipHead, newStart: skipHead, newTotal: nb },
  );
}

/**
 * The diff of `before` → `after` (decoded texts in their own line endings) labelled `label`.
 * `sources`: for each line of `after`, the line of `before` it copies or -1.
 */
export function rewriteDiff(label: string, before: string, after: string, sources?: Int32Array): RewriteDiff {
  const shortcut = sources === undefined ? undefined : windowDiff(label, before, after, sources);
  if (shortcut !== undefined) return shortcut;
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
