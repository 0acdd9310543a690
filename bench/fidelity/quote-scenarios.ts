// Scenarios for the families that place an edit by quoted text: a fresh file, and a quote that
// differs from it the ways agents misquote. The quote is one block of whole lines over the edit,
// taken from the function (widened until it occurs once in the file), then: trailing or inner
// whitespace changed; the whole block shifted to another indentation (search and replacement
// alike); a near miss (one or two small character edits in one line); a block that occurs twice in
// the file (must be refused, never placed); a quote too different from anything in the file (must
// be refused). The replacement is always the text the edit means to write, so the intended result
// is the edit applied at the block the quote was taken from; a placement elsewhere is wrong.
// Misquotes that are verbatim quotes of other text of the file, or at least as close to another
// region as to their own, are not generated: they would be quotes of that other text. Neither are
// misquotes of an edit whose result parses worse than the file (file_patch refuses such a candidate
// whatever the quote, so the placement would not show).

import { distance } from 'fastest-levenshtein';
import { docOfLines, indentOf, type Doc } from './doc.js';
import type { Lang, Target } from './corpus.js';
import { commentPrefix } from './edits.js';
import { encodeExpectPlain, expectOf, intended, itemsOf, type AbstractEdit, type Expect } from './oracle.js';
import { linesText, occurrences, quoteRegions, rewrittenLines, type Region } from './quote.js';
import type { Rng } from './rng.js';
import type { Case, Scenario } from './scenarios.js';
import { parsesWorse } from './syntax.js';

const WORDS = 'alpha beta gamma delta omega vector buffer cursor ledger parcel signal widget socket quorum harbor meadow copper violet lantern pebble thistle'.split(' ');

const blank = (l: string) => l.trim() === '';

/** One region over all the edit's hunks, widened inside the function until its text occurs once in the file. */
export function sourceRegion(t: Target, edit: AbstractEdit): Region | null {
  const lines = t.file.lines;
  const text = lines.join('\n');
  const [r] = quoteRegions(lines, edit, { bounds: [t.fn.start, t.fn.end + 1], text, single: true });
  return r && occurrences(text, lines.slice(r.lo, r.hi).join('\n')) === 1 ? r : null;
}

/** The edit's lines (with a line of context for a pure insertion or deletion), widened inside the function to 20 non-blank characters. */
function shortRegion(t: Target, edit: AbstractEdit): Region {
  const hunks = [...edit.hunks];
  const r: Region = { lo: Math.min(...hunks.map((h) => h.start)), hi: Math.max(...hunks.map((h) => h.end)), hunks };
  const pure = hunks.every((h) => h.rows.length === 0) || hunks.every((h) => h.start === h.end);
  if (pure) r.lo--;
  const chars = () => t.file.lines.slice(r.lo, r.hi).join('').replace(/\s/g, '').length;
  let up = false;
  while (chars() < 20 && (r.lo > t.fn.start || r.hi <= t.fn.end)) {
    if ((up && r.lo > t.fn.start) || r.hi > t.fn.end) r.lo--;
    else r.hi++;
    up = !up;
  }
  return r;
}

/** True when `search` occurs in the file anywhere but inside lines [lo, hi). */
function quotesOtherText(lines: readonly string[], search: string, lo: number, hi: number): boolean {
  const text = `${lines.join('\n')}\n`;
  const start = lines.slice(0, lo).reduce((s, l) => s + l.length + 1, 0);
  const end = start + lines.slice(lo, hi).reduce((s, l) => s + l.length + 1, 0);
  for (let i = text.indexOf(search); i >= 0; i = text.indexOf(search, i + 1)) if (i < start || i + search.length > end) return true;
  return false;
}

/** True when another window of the same line count is at least as close (Levenshtein) to the quote as its source. */
function closerElsewhere(lines: readonly string[], quote: readonly string[], r: Region): boolean {
  const q = quote.join('\n');
  const d0 = distance(q, lines.slice(r.lo, r.hi).join('\n'));
  const m = r.hi - r.lo;
  for (let i = 0; i + m <= lines.length; i++) {
    if (i === r.lo) continue;
    const w = lines.slice(i, i + m).join('\n');
    if (Math.abs(w.length - q.length) <= d0 && distance(q, w) <= d0) return true;
  }
  return false;
}

/** Trailing blanks added or dropped, an inner space doubled or made a tab, an inner run collapsed, on one or two lines. */
export function whitespaceMisquote(lines: readonly string[], rng: Rng): string[] | null {
  const out = [...lines];
  const cands = out.map((_, i) => i).filter((i) => !blank(out[i]!));
  for (const i of rng.shuffle([...cands]).slice(0, rng.int(1, Math.min(2, cands.length)))) {
    const line = out[i]!;
    const ind = indentOf(line);
    const at = (re: RegExp) => [...line.slice(ind.length).matchAll(re)].map((m) => ({ i: ind.length + m.index!, len: m[0].length }));
    const singles = at(/(?<=\S) (?=\S)/g);
    const runs = at(/(?<=\S)[ \t]{2,}(?=\S)/g);
    const ops: Array<() => string> = [() => line + rng.pick([' ', '  ', '\t'])];
    const put = (m: { i: number; len: number }, s: string) => line.slice(0, m.i) + s + line.slice(m.i + m.len);
    if (singles.length) ops.push(() => put(rng.pick(singles), '  '), () => put(rng.pick(singles), '\t'));
    if (runs.length) ops.push(() => put(rng.pick(runs), ' '));
    if (/\S[ \t]+$/.test(line)) ops.push(() => line.replace(/[ \t]+$/, ''));
    out[i] = rng.pick(ops)();
  }
  return out.some((l, i) => l !== lines[i]) ? out : null;
}

/** The indentation every non-blank line starts with (the least), or null when they disagree. */
function commonIndent(lines: readonly string[]): string | null {
  let c: string | null = null;
  for (const l of lines) if (!blank(l) && (c === null || indentOf(l).length < c.length)) c = indentOf(l);
  return c !== null && lines.every((l) => blank(l) || l.startsWith(c!)) ? c : null;
}

/** The whole block (search and replacement alike) moved to another indentation: all of it removed, a level removed, or a level added. */
export function indentMisquote(search: readonly string[], replace: readonly string[], rng: Rng): { search: string[]; replace: string[] } | null {
  const c = commonIndent(search);
  if (c === null || !replace.every((l) => blank(l) || l.startsWith(c))) return null;
  const tab = c.includes('\t');
  const unit = tab ? '\t' : rng.pick(['  ', '    ']);
  const ways: Array<(l: string) => string> = [(l) => unit + l];
  if (c !== '') ways.push((l) => l.slice(c.length));
  if (c.length > unit.length && c.startsWith(unit)) ways.push((l) => l.slice(unit.length));
  const way = rng.pick(ways);
  const shift = (ls: readonly string[]) => ls.map((l) => (blank(l) ? l : way(l)));
  return { search: shift(search), replace: shift(replace) };
}

const OPERATORS: ReadonlyArray<readonly [string, string]> = [['===', '=='], ['!==', '!='], ['<=', '<'], ['>=', '>'], ['&&', '&'], ['+=', '=+']];

/** One or two small character edits in one line: a dropped end mark, a comment word, a quote style, a typo, an operator, a digit. */
export function nearMiss(lines: readonly string[], rng: Rng, lang: Lang): string[] | null {
  const cands = lines.map((_, i) => i).filter((i) => lines[i]!.trim().length >= 4);
  if (cands.length === 0) return null;
  const i = rng.pick(cands);
  let line = lines[i]!;
  const edits = rng.int(1, 2);
  for (let k = 0; k < edits; k++) {
    const ops: Array<() => string> = [];
    const end = /[;,:{](?=[ \t]*$)/.exec(line);
    if (end) ops.push(() => line.slice(0, end.index) + line.slice(end.index + 1));
    const cp = line.indexOf(commentPrefix(lang));
    const word = cp >= 0 ? [...line.slice(cp).matchAll(/[A-Za-z]{3,}/g)] : [];
    if (word.length) {
      const w = rng.pick(word);
      ops.push(() => line.slice(0, cp + w.index!) + rng.pick(WORDS.filter((x) => x !== w[0])) + line.slice(cp + w.index! + w[0].length));
    }
    const str = /(['"])[^'"\\\n]*\1/.exec(line);
    if (str) {
      const other = str[1] === '"' ? "'" : '"';
      ops.push(() => line.slice(0, str.index) + other + str[0].slice(1, -1) + other + line.slice(str.index + str[0].length));
    }
    const ids = [...line.matchAll(/[A-Za-z_]\w{3,}/g)];
    if (ids.length) {
      const m = rng.pick(ids);
      const p = m.index! + rng.int(1, m[0].length - 2);
      ops.push(() => (line[p] === line[p + 1] ? line.slice(0, p) + line.slice(p + 1) : line.slice(0, p) + line[p + 1] + line[p] + line.slice(p + 2)));
      ops.push(() => line.slice(0, m.index!) + line.slice(m.index! + 1));
    }
    for (const [a, b] of OPERATORS) if (line.includes(a)) ops.push(() => line.replace(a, b));
    const digit = /\d/.exec(line);
    if (digit) ops.push(() => line.slice(0, digit.index) + String((Number(digit[0]) + 1) % 10) + line.slice(digit.index + 1));
    if (ops.length === 0) break;
    line = rng.pick(ops)();
  }
  return line === lines[i] ? null : lines.map((l, j) => (j === i ? line : l));
}

/** Every word and digit replaced (indentation and punctuation kept): a quote of code that is not there. */
export function garble(lines: readonly string[], rng: Rng): string[] {
  return lines.map((l) => l.replace(/[A-Za-z_]\w*/g, (w) => rng.pick(WORDS.filter((x) => x !== w.toLowerCase()))).replace(/\d/g, (d) => String((Number(d) + rng.int(1, 9)) % 10)));
}

/** True when every region of the file (the quote's line count ± 2) differs from the quote in at least `ratio` of the longer length. */
function farFromEverything(lines: readonly string[], quote: readonly string[], ratio: number): boolean {
  const q = quote.join('\n');
  for (let m = Math.max(1, quote.length - 2); m <= quote.length + 2; m++) {
    for (let i = 0; i + m <= lines.length; i++) {
      const w = lines.slice(i, i + m).join('\n');
      const longer = Math.max(w.length, q.length, 1);
      if (Math.abs(w.length - q.length) / longer >= ratio) continue;
      if (distance(q, w) / longer < ratio) return false;
    }
  }
  return true;
}

function quoteCase(initial: Doc, r: Region, search: readonly string[], replace: readonly string[], ok: readonly Expect[]): Case {
  return {
    initial,
    between: { kind: 'none' },
    quote: { lo: r.lo, hi: r.hi, block: { search: linesText(search), replace: linesText(replace) } },
    ok: () => [...ok],
    refused: () => [expectOf(itemsOf(initial))],
  };
}

/** A misquote of the edit's source block on a fresh file: the intended result is the edit there. */
function misquoted(t: Target, edit: AbstractEdit, rng: Rng, make: (search: string[], replace: string[]) => { search: string[]; replace: string[] } | null, checkCloser: boolean): Case | null {
  const r = sourceRegion(t, edit);
  if (!r) return null;
  const lines = t.file.lines;
  for (let attempt = 0; attempt < 8; attempt++) {
    const q = make(lines.slice(r.lo, r.hi), rewrittenLines(lines, r));
    if (!q || q.search.join('\n') === lines.slice(r.lo, r.hi).join('\n')) continue;
    if (quotesOtherText(lines, linesText(q.search), r.lo, r.hi)) continue;
    if (checkCloser && closerElsewhere(lines, q.search, r)) continue;
    const want = intended(itemsOf(docOfLines(lines)), [{ edit, label: 'ours' }]);
    if (!want || parsesWorse(t, encodeExpectPlain(want).toString('utf8'))) return null;
    return quoteCase(docOfLines(lines), r, q.search, q.replace, [want]);
  }
  return null;
}

export const QUOTE_SCENARIOS: readonly Scenario[] = [
  {
    id: 'quote-whitespace',
    title: 'quote: trailing or inner whitespace differs',
    changes: false,
    quoted: true,
    build: ({ target, edit, rng }) => misquoted(target, edit, rng, (s, replace) => {
      const search = whitespaceMisquote(s, rng);
      return search ? { search, replace } : null;
    }, false),
  },
  {
    id: 'quote-indent',
    title: 'quote: the whole block at another indentation',
    changes: false,
    quoted: true,
    build: ({ target, edit, rng }) => misquoted(target, edit, rng, (s, r) => indentMisquote(s, r, rng), false),
  },
  {
    id: 'quote-near-miss',
    title: 'quote: a near miss (1-2 character edits in a line)',
    changes: false,
    quoted: true,
    build: ({ target, edit, rng }) => misquoted(target, edit, rng, (s, replace) => {
      const search = nearMiss(s, rng, target.file.lang);
      return search ? { search, replace } : null;
    }, true),
  },
  {
    id: 'quote-repeated',
    title: 'quote: a block that occurs twice in the file (must be refused)',
    changes: false,
    quoted: true,
    refusal: 'aider_ambiguous',
    build: ({ target, edit, rng, index }) => {
      const lines = target.file.lines;
      const r = shortRegion(target, edit);
      const block = lines.slice(r.lo, r.hi);
      const dests: Array<number | null> = target.others.filter((o) => o.start > target.fn.end + 1).map((o) => o.start);
      dests.push(null);
      const at = rng.pick(dests);
      const copied = at === null ? [...lines, '', ...block] : [...lines.slice(0, at), ...block, '', ...lines.slice(at)];
      let search: readonly string[] = block;
      let replace: readonly string[] = rewrittenLines(lines, r);
      // the copy is quoted exactly, or misquoted as the other scenarios do (both copies alike)
      const variant = index % 4;
      if (variant === 1) search = whitespaceMisquote(block, rng) ?? block;
      if (variant === 2) ({ search, replace } = indentMisquote(block, replace, rng) ?? { search, replace });
      if (variant === 3) search = nearMiss(block, rng, target.file.lang) ?? block;
      return quoteCase(docOfLines(copied), r, search, replace, []);
    },
  },
  {
    id: 'quote-too-different',
    title: 'quote: too different from anything in the file (must be refused)',
    changes: false,
    quoted: true,
    refusal: 'aider_no_match',
    build: ({ target, edit, rng }) => {
      const r = sourceRegion(target, edit);
      if (!r) return null;
      const lines = target.file.lines;
      for (let attempt = 0; attempt < 4; attempt++) {
        const search = garble(lines.slice(r.lo, r.hi), rng);
        if (farFromEverything(lines, search, 0.6)) return quoteCase(docOfLines(lines), r, search, rewrittenLines(lines, r), []);
      }
      return null;
    },
  },
];
