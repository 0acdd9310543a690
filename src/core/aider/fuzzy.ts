// Step 4 of the aider cascade: the region of whole lines most like the search block, by
// diff-match-patch (edits of a minimal diff / length of the longer text), placed only when it is
// at least FUZZY_THRESHOLD similar and clearly the best: an equally good region elsewhere (a tie)
// or a region not overlapping it within FUZZY_MARGIN is ambiguous. Windows of the search block's
// line count (± a few lines) are screened by cheap lower bounds of their distance (a character
// histogram, then the exact Levenshtein distance, which a diff's edit count never undercuts), so
// only regions that could win are diffed. Screening has a work budget; a search that runs out of it
// before every region that could tie is ruled out places nothing. A region's first line may keep a
// prefix and a fragment's last line a suffix the search does not quote (the diff says so), except a
// prefix that ends inside a word (the quote lost a word's first characters: the whole line is
// replaced); a prefix of blanks before a one-line search is its indentation (line-start.ts). The
// best region must also agree line by line (lineDisagreement): at least half of the quoted lines
// stand in it as written, or, for a one-line quote, the line is 0.75 similar; when neither it nor
// any region tying with it agrees, the block matches nowhere (not ambiguous).

import DiffMatchPatch from 'diff-match-patch';
import { distance } from 'fastest-levenshtein';
import { blockLines, LineIndex, windowEdit } from './line-index.js';
import { matchEdit, matchStart } from './line-start.js';
import { MAX_LISTED_SPANS, type ClosestRegion, type LineSpan, type StepResult } from './types.js';

/** A placement needs at least this similarity (1 - edits / longer length). */
export const FUZZY_THRESHOLD = 0.5;
/** A region not overlapping the best must be at least this much less similar, or the block is ambiguous. */
export const FUZZY_MARGIN = 0.02;
/** Searches with fewer non-blank characters are never placed approximately. */
export const FUZZY_MIN_CHARS = 12;
/** Searches longer than this (characters) are never placed approximately. */
export const FUZZY_MAX_CHARS = 16_384;
/** Screening work (about one unit per 32 characters compared) before the step gives up. */
export const FUZZY_WORK_BUDGET = 40_000_000;

const MAX_RATIO = 1 - FUZZY_THRESHOLD;
const EPS = 1e-9;

export type FuzzyResult = StepResult & { readonly closest?: ClosestRegion; readonly note?: string };

interface Window {
  readonly i: number;
  readonly m: number;
  /** A lower bound of the window's ratio (edits / longer length). */
  bound: number;
  ratio?: number;
}

let dmpInstance: DiffMatchPatch | undefined;
function dmp(): DiffMatchPatch {
  if (!dmpInstance) {
    dmpInstance = new DiffMatchPatch();
    dmpInstance.Diff_Timeout = 0; // a minimal diff: the ratio must not depend on a clock
  }
  return dmpInstance;
}

/** diff-match-patch's distance of a minimal diff, over the longer length. */
export function dmpRatio(a: string, b: string): number {
  if (a === b) return 0;
  const d = dmp();
  return d.diff_levenshtein(d.diff_main(a, b, false)) / Math.max(a.length, b.length);
}

/** Window sizes: the search's line count, and a few lines either way for quotes that lost or gained lines. */
export function windowSizes(n: number, count: number): number[] {
  const slack = Math.min(4, Math.ceil(n / 5));
  const out: number[] = [];
  for (let m = Math.max(1, n - slack); m <= n + slack; m++) if (m <= count) out.push(m);
  if (out.length === 0 && count > 0) out.push(count);
  return out;
}

/**
 * Every window of each size with its histogram bound: a substitution changes the character counts
 * by 2, an insertion or deletion by 1, so edits >= L1 / 2 (L1: the summed count differences).
 */
function screenByHistogram(index: LineIndex, body: string, sizesList: readonly number[]): Window[] {
  const delta = new Int32Array(65536);
  const out: Window[] = [];
  const ls = body.length;
  for (const m of sizesList) {
    delta.fill(0);
    let l1 = 0;
    const bump = (c: number, by: number) => {
      const old = delta[c]!;
      const now = old + by;
      delta[c] = now;
      l1 += Math.abs(now) - Math.abs(old);
    };
    for (let k = 0; k < ls; k++) bump(body.charCodeAt(k), -1);
    const addLine = (j: number, by: number) => {
      for (let k = index.start(j), e = index.end(j); k < e; k++) bump(index.text.charCodeAt(k), by);
      bump(0x0a, by);
    };
    bump(0x0a, -1);
    for (let j = 0; j < m; j++) addLine(j, 1);
    for (let i = 0; i + m <= index.count; i++) {
      if (i > 0) {
        addLine(i - 1, -1);
        addLine(i + m - 1, 1);
      }
      const lw = index.end(i + m - 1) - index.start(i);
      const bound = Math.max(l1 / 2, Math.abs(lw - ls)) / Math.max(lw, ls, 1);
      // a window bounded above the threshold can never be placed: only the least bounded is kept, as evidence
      if (bound <= MAX_RATIO || out.length === 0 || bound < out[0]!.bound) {
        if (bound > MAX_RATIO && out.length > 0 && out[0]!.bound > MAX_RATIO) out[0] = { i, m, bound };
        else if (bound > MAX_RATIO) out.unshift({ i, m, bound });
        else out.push({ i, m, bound });
      }
    }
  }
  return out;
}

const overlaps = (a: Window, b: Window) => a.i < b.i + b.m && b.i < a.i + a.m;

/** Trims what the region holds before the quoted text on its first line (and, for a fragment, after it on its last). */
function trimEdges(body: string, region: string, fragment: boolean): { head: number; tail: number } {
  const diffs = dmp().diff_main(body, region, false);
  let head = 0;
  let tail = 0;
  const [first, second] = diffs;
  if (first && second && first[0] === DiffMatchPatch.DIFF_INSERT && second[0] === DiffMatchPatch.DIFF_EQUAL && !first[1].includes('\n')) head = first[1].length;
  const last = diffs[diffs.length - 1];
  const before = diffs[diffs.length - 2];
  if (fragment && diffs.length > 2 && last && before && last[0] === DiffMatchPatch.DIFF_INSERT && before[0] === DiffMatchPatch.DIFF_EQUAL && !last[1].includes('\n')) tail = last[1].length;
  return { head, tail };
}

export function fuzzyStep(text: string, search: string, replace: string): FuzzyResult {
  const body = blockLines(search).join('\n');
  if (body.replace(/\s/g, '').length < FUZZY_MIN_CHARS) return { kind: 'none', note: `the search block is too short to place approximately (under ${FUZZY_MIN_CHARS} non-blank characters)` };
  if (body.length > FUZZY_MAX_CHARS) return { kind: 'none', note: `the search block is too long to place approximately (over ${FUZZY_MAX_CHARS} characters)` };
  const index = new LineIndex(text);
  if (index.count === 0) return { kind: 'none' };
  const n = blockLines(search).length;
  const windows = screenByHistogram(index, body, windowSizes(n, index.count));
  const windowText = (w: Window) => text.slice(index.start(w.i), index.end(w.i + w.m - 1));
  const spanOf = (w: Window): LineSpan => index.windowSpan(w.i, w.m);
  windows.sort((a, b) => a.bound - b.bound || Math.abs(a.m - n) - Math.abs(b.m - n) || a.i - b.i);
  const words = Math.ceil(body.length / 32);
  let work = 0;
  let best: Window | undefined;
  let closest: Window | undefined;
  let gaveUp = false;
  const scored: Window[] = [];
  for (const w of windows) {
    // a best within the threshold needs every region within the margin of it ruled out
    const cutoff = best && best.ratio! <= MAX_RATIO ? best.ratio! + FUZZY_MARGIN : MAX_RATIO;
    if (w.bound > cutoff) break;
    const region = windowText(w);
    work += words * (region.length + 1);
    if (work > FUZZY_WORK_BUDGET) {
      gaveUp = true;
      break;
    }
    const lev = distance(body, region);
    const longer = Math.max(body.length, region.length, 1);
    w.bound = Math.max(w.bound, lev / longer);
    if (!closest || w.bound < closest.bound) closest = w;
    if (w.bound > cutoff) continue;
    work += (body.length + region.length) * (2 * lev + 1) / 32;
    w.ratio = dmpRatio(body, region);
    scored.push(w);
    if (!best || w.ratio < best.ratio! - EPS) best = w;
  }
  const closestOf = (w: Window | undefined): ClosestRegion | undefined => {
    const c = w ?? windows[0];
    if (!c) return undefined;
    const ratio = c.ratio ?? distance(body, windowText(c)) / Math.max(body.length, windowText(c).length, 1);
    return { span: spanOf(c), similarity: round(1 - ratio) };
  };
  if (!best || best.ratio! > MAX_RATIO) {
    return { kind: 'none', closest: closestOf(best ?? closest), ...(gaveUp ? { note: 'the approximate search gave up before ruling out every similar region' } : {}) };
  }
  if (gaveUp) {
    return { kind: 'none', closest: closestOf(best), note: 'the approximate search gave up before ruling out every region as similar as the best one; quote the region more exactly' };
  }
  const rivals = scored.filter((w) => w !== best && (Math.abs(w.ratio! - best!.ratio!) < EPS || (!overlaps(w, best!) && w.ratio! <= best!.ratio! + FUZZY_MARGIN)));
  const similarity = round(1 - best.ratio!);
  // regions that are only alike in shape (a function that exists nowhere, quoted among others like
  // it) are no match, however many of them tie
  const disagree = lineDisagreement(body, windowText(best));
  if (disagree !== null && rivals.every((w) => lineDisagreement(body, windowText(w)) !== null)) {
    return { kind: 'none', closest: closestOf(best), note: disagree };
  }
  if (rivals.length > 0) {
    const spans = [best, ...rivals].sort((a, b) => a.i - b.i).slice(0, MAX_LISTED_SPANS).map(spanOf);
    return { kind: 'ambiguous', spans, similarity };
  }
  const edit = windowEdit(index, best.i, best.m, search, replace);
  const { head, tail } = trimEdges(body, windowText(best), !search.endsWith('\n'));
  const start = head > 0 && matchStart(text, edit.start + head) === 'word' ? edit.start : edit.start + head;
  const trimmed = matchEdit(text, start, edit.end - tail, search, edit.text);
  return { kind: 'placed', placement: { method: 'diff-match-patch', edit: trimmed, span: spanOf(best), similarity } };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** Lines with at least this many non-blank characters carry evidence (a lone `}` does not). */
const SIGNIFICANT_CHARS = 3;
/** A one-line quote is placed approximately only when it is at least this similar to the line. */
const ONE_LINE_SIMILARITY = 0.75;

/**
 * Why a region similar enough as a whole is still not the quoted one (null: it is). Similar shape
 * is not the same code: a quote of `save(data)` with a body of its own must not land on `load()`
 * because both are three-line functions. So at least half of the quote's significant lines must
 * stand in the region word for word (indentation aside); a one-line quote must be close to it.
 */
export function lineDisagreement(body: string, region: string): string | null {
  const significant = body.split('\n').map((l) => l.trim()).filter((l) => l.replace(/\s/g, '').length >= SIGNIFICANT_CHARS);
  const have = new Set(region.split('\n').map((l) => l.trim()));
  if (significant.length === 0) return 'the search block has no line long enough to place approximately';
  if (significant.length === 1) {
    const line = significant[0]!;
    const closest = Math.max(...[...have].map((r) => 1 - dmpRatio(line, r)));
    return closest >= ONE_LINE_SIMILARITY ? null : `the quoted line is not close enough to any line there (similarity under ${ONE_LINE_SIMILARITY})`;
  }
  const found = significant.filter((l) => have.has(l)).length;
  return found * 2 >= significant.length
    ? null
    : `only ${found} of the ${significant.length} quoted lines stand there as written; at least half must`;
}
