// Hunks of the merge property tests (0-based: lines start..end of the read text are replaced by
// `rows`; start === end inserts) written as an fs_edit request in the hashline DSL.

export interface Hunk {
  start: number;
  end: number;
  rows: string[];
}

/** The DSL text that makes `hunks`, in order. */
export function hunksToDsl(hunks: readonly Hunk[]): string {
  const out: string[] = [];
  for (const h of hunks) {
    if (h.start === h.end) out.push(h.start >= 1 ? `insert after ${h.start}:` : 'insert before 1:', ...h.rows.map((r) => `+${r}`));
    else if (h.rows.length === 0) out.push(`delete ${h.start + 1}..${h.end}`);
    else out.push(`replace ${h.start + 1}..${h.end}:`, ...h.rows.map((r) => `+${r}`));
  }
  return out.join('\n');
}
