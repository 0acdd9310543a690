// The boundary-balance repair (spec/hashline.md): a replacement whose brackets no longer balance
// the lines it replaces, because its last row repeats the closing line just below the range, or
// because it left out the closing line that ended the range, is repaired when dropping (or
// keeping) that single line brings the difference to exactly 0: `}`, `});`, `]);`, `})` alike. It runs only when the whole plan is unbalanced (so a plan
// that moves a closing bracket with two hunks is left alone), and says so in a warning.

import * as msg from '../messages/edit.js';
import type { Hunk } from './ops.js';

const CLOSER_ONLY = /^\s*[)\]}]+[;,]?\s*$/;

/** Opening minus closing brackets (a plain count: strings and comments are not parsed). */
function balance(lines: Iterable<string>): number {
  let b = 0;
  for (const line of lines) {
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c === 0x28 || c === 0x5b || c === 0x7b) b++;
      else if (c === 0x29 || c === 0x5d || c === 0x7d) b--;
    }
  }
  return b;
}

function replaced(lines: readonly string[], h: Extract<Hunk, { kind: 'range' }>): string[] {
  return lines.slice(h.start - 1, h.end);
}

/** Repairs replacement hunks against the lines they apply to; returns the hunks and warnings. */
export function repairBalance(lines: readonly string[], hunks: readonly Hunk[]): { hunks: Hunk[]; warnings: string[] } {
  let total = 0;
  for (const h of hunks) {
    if (h.kind === 'range') total += balance(h.rows) - balance(replaced(lines, h));
    else total += balance(h.rows);
  }
  if (total === 0) return { hunks: [...hunks], warnings: [] };
  const warnings: string[] = [];
  const out = hunks.map((h): Hunk => {
    if (h.kind !== 'range' || h.rows.length === 0) return h;
    const delta = balance(h.rows) - balance(replaced(lines, h));
    const last = h.rows[h.rows.length - 1]!;
    const below = lines[h.end];
    if (delta < 0 && h.rows.length >= 2 && below !== undefined && CLOSER_ONLY.test(last) && last === below && balance([last]) === delta) {
      warnings.push(msg.balanceRepaired(h.start, 'dropped'));
      return { ...h, rows: h.rows.slice(0, -1) };
    }
    const closing = lines[h.end - 1]!;
    // A range that is only the closing line is kept only under a payload that closes a block of its own
    // (`replace 5:` of `};` by a whole new member ending `},`); else replacing the closer is intended.
    const spans = h.end > h.start || (h.rows.length >= 2 && CLOSER_ONLY.test(last));
    if (delta > 0 && spans && CLOSER_ONLY.test(closing) && last.trim() !== closing.trim() && balance([closing]) === -delta) {
      warnings.push(msg.balanceRepaired(h.start, 'kept'));
      return { ...h, rows: [...h.rows, closing] };
    }
    return h;
  });
  return { hunks: out, warnings };
}
