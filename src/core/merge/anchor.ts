// Where the lines a stale edit was written against sit now, found by their text: a window (the
// lines a hunk touches plus its margin, the file's start and end counting as lines) is looked up in
// the live text. A place is taken only when it is the one place that agrees with what was read:
// among all places where the window occurs, the one whose surroundings keep agreeing farther in
// both directions than every other place's, and farther than any copy of the window the read text
// itself held (a twin the edit might equally have meant). Agreement is counted in lines that carry
// words, so a shared blank line or closing bracket decides nothing. Anything else is ambiguous.
// Lines are compared by a key (the line itself, or the line without its outer blanks).

/** Lines compared around a candidate, each way, at most. */
export const EXTENSION_CAP = 1024;
/** Places a window may occur before it counts as ambiguous without looking further. */
export const CANDIDATE_CAP = 1024;

/** Positions of each key in a list of lines. */
export class LineIndex {
  private readonly at = new Map<string, number[]>();
  constructor(readonly keys: readonly string[]) {
    keys.forEach((k, i) => {
      const list = this.at.get(k);
      if (list) list.push(i);
      else this.at.set(k, [i]);
    });
  }
  positions(key: string): readonly number[] {
    return this.at.get(key) ?? [];
  }
}

/** A window of the read text: 0-based lines lo..hi, where -1 and `length` are the file's boundaries. */
export interface Window {
  readonly lo: number;
  readonly hi: number;
}

/**
 * True when line `ia` of `a` and line `ib` of `b` agree. Index -1 is the file's start and `length`
 * its end: a boundary agrees only with the same boundary; indexes beyond them agree with nothing.
 */
function same(a: readonly string[], ia: number, b: readonly string[], ib: number): boolean {
  if (ia < -1 || ib < -1 || ia > a.length || ib > b.length) return false;
  if (ia === -1 || ib === -1) return ia === ib;
  if (ia === a.length || ib === b.length) return ia === a.length && ib === b.length;
  return a[ia] === b[ib];
}

/** True when `a` from `ia` and `b` from `ib` agree on `count` lines. */
function agree(a: readonly string[], ia: number, b: readonly string[], ib: number, count: number): boolean {
  for (let k = 0; k < count; k++) if (!same(a, ia + k, b, ib + k)) return false;
  return true;
}

/** Shifts d such that b[i + d] = a[i] for every line i of the window (boundaries match boundaries only). */
function shiftsOf(a: readonly string[], w: Window, b: readonly string[], index: LineIndex): number[] | 'too many' {
  const size = w.hi - w.lo + 1;
  if (w.lo < 0 || w.hi >= a.length) {
    // a window reaching a boundary can only sit at that boundary
    const d = w.lo < 0 ? 0 : b.length - a.length;
    return agree(a, w.lo, b, w.lo + d, size) ? [d] : [];
  }
  // look up the window's rarest line
  let best = w.lo;
  for (let i = w.lo; i <= w.hi; i++) if (index.positions(a[i]!).length < index.positions(a[best]!).length) best = i;
  const hits = index.positions(a[best]!);
  if (hits.length > CANDIDATE_CAP) return 'too many';
  const out: number[] = [];
  for (const p of hits) {
    const d = p - best;
    if (w.lo + d >= 0 && w.hi + d < b.length && agree(a, w.lo, b, w.lo + d, size)) out.push(d);
  }
  return out;
}

/** A line that says something: a blank line or a lone bracket agrees with too much to count as evidence. */
const EVIDENCE = /[\p{L}\p{N}_]/u;

/**
 * How far beyond the window's ends the read lines around it (shifted by `r`) and the live lines
 * (shifted by `l`) keep agreeing, counted in lines that are evidence (blank lines and lone brackets
 * pass but do not count; a file boundary counts): [above, below].
 */
function reach(a: readonly string[], w: Window, r: number, b: readonly string[], l: number): [number, number] {
  const worth = (i: number) => (i < 0 || i >= a.length || EVIDENCE.test(a[i]!) ? 1 : 0);
  let up = 0;
  for (let i = w.lo - 1, k = 0; i + r >= -1 && k < EXTENSION_CAP && same(a, i + r, b, i + l); i--, k++) up += worth(i + r);
  let down = 0;
  for (let i = w.hi + 1, k = 0; i + r <= a.length && k < EXTENSION_CAP && same(a, i + r, b, i + l); i++, k++) down += worth(i + r);
  return [up, down];
}

export type Placement =
  | { readonly kind: 'placed'; readonly shift: number }
  | { readonly kind: 'absent' }
  | { readonly kind: 'ambiguous'; readonly shifts: readonly number[] };

/**
 * Where window `w` of the read lines (`readKeys`) sits in the live lines (`liveKeys`). Every place
 * the window's text occurs in the live text is a candidate, and every other place it occurs in the
 * read text is a twin the edit could be mistaken for. A candidate is taken when the read text
 * around the window agrees with the live text around it at least as far each way as around every
 * other candidate (and farther one way), and likewise farther than the text around any twin does.
 */
export function placeWindow(readKeys: readonly string[], readIndex: LineIndex, liveKeys: readonly string[], liveIndex: LineIndex, w: Window): Placement {
  const live = shiftsOf(readKeys, w, liveKeys, liveIndex);
  if (live === 'too many') return { kind: 'ambiguous', shifts: [] };
  if (live.length === 0) return { kind: 'absent' };
  const twins = shiftsOf(readKeys, w, readKeys, readIndex);
  if (twins === 'too many') return { kind: 'ambiguous', shifts: live };
  const others = twins.filter((d) => d !== 0);
  if (live.length === 1 && others.length === 0) return { kind: 'placed', shift: live[0]! };
  const reaches = live.map((d) => reach(readKeys, w, 0, liveKeys, d));
  const covers = (x: [number, number], y: [number, number]) => x[0] >= y[0] && x[1] >= y[1];
  // the places no other place covers
  const maximal = live.filter((_, i) => reaches.every((r, j) => j === i || !covers(r, reaches[i]!)));
  if (maximal.length !== 1) return { kind: 'ambiguous', shifts: live };
  const at = maximal[0]!;
  const win = reaches[live.indexOf(at)]!;
  // could that place be a twin rather than the lines the edit was written for? Only when the
  // lines it read agree with that place at least as far as the twin's do, each way, and farther one way
  const beats = (x: [number, number], y: [number, number]) => covers(x, y) && (x[0] > y[0] || x[1] > y[1]);
  if (others.some((t) => !beats(win, reach(readKeys, w, t, liveKeys, at)))) return { kind: 'ambiguous', shifts: live };
  return { kind: 'placed', shift: at };
}
