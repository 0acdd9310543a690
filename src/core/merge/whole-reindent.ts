// A formatter pass over the whole file, proven rather than guessed: the live text has as many lines
// as the text read, each line reads as the read line at the same place once its outer blanks are
// dropped, and one re-indentation rule (indent.ts) turns the indentation of every read line into
// that of its live line. Then every read line is the live line at the same number, with no search,
// and the rows of a stale edit go in re-indented by that rule. The rule must also keep apart what
// it was given apart (two read indentations never become one), else two lines that differed only
// by their indentation now read the same and the order of lines alone would be the story), and two
// lines at least must show it.

import { leading, learnReindent, type IndentPair } from './indent.js';

export interface WholeReindent {
  /** The rows re-indented by the file's rule, or null when the rule cannot map their indentation. */
  readonly rows: (rows: readonly string[]) => string[] | null;
}

/** The rule that re-indented the whole read text into the live text, or null when there is none. */
export function wholeFileReindent(read: readonly string[], live: readonly string[]): WholeReindent | null {
  if (read.length !== live.length || read.length === 0) return null;
  const pairs: IndentPair[] = [];
  const image = new Map<string, string>();
  const source = new Map<string, string>();
  let moved = 0;
  for (let i = 0; i < read.length; i++) {
    const a = read[i]!;
    const b = live[i]!;
    const key = a.trim();
    if (key !== b.trim()) return null;
    if (key === '') continue;
    const from = leading(a);
    const to = leading(b);
    if (from !== to) moved++;
    const known = image.get(from);
    if (known !== undefined && known !== to) return null;
    const back = source.get(to);
    if (back !== undefined && back !== from) return null;
    if (known === undefined) {
      image.set(from, to);
      source.set(to, from);
      pairs.push({ from, to });
    }
  }
  // (one line fits any rule: like a hunk's window, the file must show it on two)
  if (moved < 2) return null;
  const rule = learnReindent(pairs);
  return rule.kind === 'reindented' ? { rows: rule.rows } : null;
}
