// How a formatter re-indented lines, learned from pairs (indentation as read, indentation now), so
// that the rows of a stale edit can be re-indented the same way. Three kinds of rule are tried:
// nothing changed (only trailing blanks or line endings did); each space and each tab of the
// indentation became a fixed string (2 → 4 spaces, tabs → spaces, ...); a fixed prefix was added
// or removed (a block moved one level in or out). A rule is used only when it explains every pair
// and every rule that does gives the rows the same indentation; otherwise there is no rule and the
// edit is refused rather than guessed.

/** Leading blanks (spaces and tabs) of a line. */
export function leading(line: string): string {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 0x20 || line.charCodeAt(i) === 0x09)) i++;
  return line.slice(0, i);
}

export interface IndentPair {
  readonly from: string;
  readonly to: string;
}

type Rule = (indent: string) => string | null;

/** Each space becomes `space`, each tab becomes `tab` (undefined: never seen, cannot be mapped). */
function substitution(pairs: readonly IndentPair[]): Rule | null {
  let space: string | undefined;
  let tab: string | undefined;
  for (const { from, to } of pairs) {
    if (from === '') {
      if (to !== '') return null;
      continue;
    }
    const spaces = [...from].filter((c) => c === ' ').length;
    const tabs = from.length - spaces;
    // a pure run of one character fixes that character's image
    if (tabs === 0 || spaces === 0) {
      if (to.length % from.length !== 0) return null;
      const unit = to.slice(0, to.length / from.length);
      if (unit.repeat(from.length) !== to) return null;
      if (tabs === 0) {
        if (space !== undefined && space !== unit) return null;
        space = unit;
      } else {
        if (tab !== undefined && tab !== unit) return null;
        tab = unit;
      }
    }
  }
  const rule: Rule = (s) => {
    let out = '';
    for (const c of s) {
      const img = c === ' ' ? space : tab;
      if (img === undefined) return null;
      out += img;
    }
    return out;
  };
  // mixed indentations must agree with the images learned from pure ones
  return pairs.every((p) => rule(p.from) === p.to) ? rule : null;
}

/** A constant prefix added to (or removed from) every indentation. */
function shift(pairs: readonly IndentPair[]): Rule | null {
  const first = pairs[0];
  if (!first) return null;
  if (first.to.endsWith(first.from)) {
    const add = first.to.slice(0, first.to.length - first.from.length);
    const rule: Rule = (s) => add + s;
    if (pairs.every((p) => rule(p.from) === p.to)) return rule;
  }
  if (first.from.endsWith(first.to)) {
    const cut = first.from.slice(0, first.from.length - first.to.length);
    const rule: Rule = (s) => (s.startsWith(cut) ? s.slice(cut.length) : null);
    if (pairs.every((p) => rule(p.from) === p.to)) return rule;
  }
  return null;
}

export type Reindent =
  /** The indentation did not change: rows go in as sent. */
  | { readonly kind: 'unchanged' }
  /** Rows re-indented by the learned rule. */
  | { readonly kind: 'reindented'; readonly rows: (rows: readonly string[]) => string[] | null }
  | { readonly kind: 'none' };

/**
 * The rule behind `pairs` (blank lines left out by the caller). `rows` are re-indented only when
 * every rule that explains the pairs gives them the same indentation.
 */
export function learnReindent(pairs: readonly IndentPair[]): Reindent {
  if (pairs.every((p) => p.from === p.to)) return { kind: 'unchanged' };
  const rules = [substitution(pairs), shift(pairs)].filter((r): r is Rule => r !== null);
  if (rules.length === 0) return { kind: 'none' };
  return {
    kind: 'reindented',
    rows: (rows) => {
      let agreed: string[] | null = null;
      for (const rule of rules) {
        const out: string[] = [];
        for (const row of rows) {
          if (row.trim() === '') {
            out.push(row);
            continue;
          }
          const ind = leading(row);
          const img = rule(ind);
          if (img === null) return null;
          out.push(img + row.slice(ind.length));
        }
        if (agreed !== null && agreed.some((r, i) => r !== out[i])) return null;
        agreed = out;
      }
      return agreed;
    },
  };
}
