// The boundary family's part of the fidelity report: per scenario, how file_patch placed each
// task's aider blocks (the loosest cascade step any of its blocks needed, from matchMethods) or
// why it refused (the error code: ties are aider_ambiguous), and the family's goals: no wrong
// apply, every edit of a changed file refused by its hash, repeated text and far-off quotes refused
// with the right code.

import type { AgentKind } from './agents/agent.js';
import type { Counts, Goal } from './report-types.js';
import type { TaskResult } from './runner.js';
import type { Scenario } from './scenarios.js';

/** Cascade steps, tightest first. */
export const STEPS = ['exact', 'whitespace', 'relative-indentation', 'diff-match-patch', 'append'] as const;
export const REFUSALS = ['aider_ambiguous', 'aider_no_match', 'stale_or_missing_hash', 'candidate_parse_error'] as const;

export interface CascadeRow {
  /** Tasks that ran (not n/a). */
  ran: number;
  wrong: number;
  crash: number;
  /** Tasks placed, by the loosest step a block of the task needed. */
  placed: Record<string, number>;
  /** Tasks refused, by error code ('other' for the rest). */
  refused: Record<string, number>;
}

/** Per scenario, for the agents of the boundary family. */
export function cascadeCounts(results: readonly TaskResult[], kinds: readonly AgentKind[]): Map<string, CascadeRow> {
  const ids = new Set(kinds.filter((k) => k.family === 'boundary').map((k) => k.id));
  const out = new Map<string, CascadeRow>();
  for (const r of results) {
    if (!ids.has(r.kind) || r.judged.outcome === 'n/a') continue;
    const row = out.get(r.scenario) ?? { ran: 0, wrong: 0, crash: 0, placed: {}, refused: {} };
    out.set(r.scenario, row);
    row.ran++;
    if (r.judged.outcome === 'wrong') row.wrong++;
    if (r.judged.outcome === 'crash') row.crash++;
    if (r.methods && r.methods.length > 0) {
      const loosest = STEPS[Math.max(...r.methods.map((m) => STEPS.indexOf(m as (typeof STEPS)[number])))] ?? 'other';
      row.placed[loosest] = (row.placed[loosest] ?? 0) + 1;
    } else if (r.code) {
      const code = (REFUSALS as readonly string[]).includes(r.code) ? r.code : 'other';
      row.refused[code] = (row.refused[code] ?? 0) + 1;
    }
  }
  return out;
}

const cell = (n: number | undefined, of: number) => (!n ? '0' : `${n} (${((100 * n) / of).toFixed(0)}%)`);

export function cascadeMarkdown(rows: Map<string, CascadeRow>, scenarios: readonly Scenario[]): string[] {
  if (rows.size === 0) return [];
  const out = [
    'Boundary family, per scenario: tasks placed by the loosest cascade step one of their blocks needed (file_patch `matchMethods`), and tasks refused by error code (a tie is `aider_ambiguous`):',
    '',
    `| scenario | ran | ${STEPS.slice(0, 4).join(' | ')} | ${REFUSALS.join(' | ')} | other refusal | **wrong** |`,
    `|---|---|${STEPS.slice(0, 4).map(() => '---').join('|')}|${REFUSALS.map(() => '---').join('|')}|---|---|`,
  ];
  for (const sc of scenarios) {
    const r = rows.get(sc.id);
    if (!r) continue;
    const placed = STEPS.slice(0, 4).map((s) => cell(r.placed[s], r.ran));
    const refused = REFUSALS.map((c) => cell(r.refused[c], r.ran));
    out.push(`| ${sc.id} | ${r.ran} | ${placed.join(' | ')} | ${refused.join(' | ')} | ${cell(r.refused.other, r.ran)} | ${r.wrong ? `**${r.wrong}**` : '0'} |`);
  }
  out.push('');
  return out;
}

/** The boundary family's goals, from the outcome counts. */
export function boundaryGoals(counts: Map<string, Map<string, Counts>>, kinds: readonly AgentKind[], scenarios: readonly Scenario[], rows: Map<string, CascadeRow>): Goal[] {
  const out: Goal[] = [];
  const ran = (c: Counts) => c.exact + c.merged + c.refused + c.wrong + c.crash;
  for (const k of kinds.filter((x) => x.family === 'boundary')) {
    let wrong = 0;
    let crash = 0;
    for (const bySc of counts.values()) {
      wrong += bySc.get(k.id)?.wrong ?? 0;
      crash += bySc.get(k.id)?.crash ?? 0;
    }
    out.push({ text: `0 wrong applies and 0 crashes in every scenario (${k.id})`, measured: `${wrong} wrong, ${crash} crashes`, met: wrong === 0 && crash === 0 });
    let drifted = 0;
    let stale = 0;
    let firstOk = 0;
    for (const sc of scenarios.filter((s) => s.changes)) {
      const c = counts.get(sc.id)?.get(k.id);
      if (!c) continue;
      drifted += ran(c);
      stale += c.clear;
      firstOk += c.exact; // a second session's edit that came first met an unchanged file
    }
    out.push({
      text: `every edit of a file changed since its read refused as stale_or_missing_hash with a next call (${k.id}; an edit of a second session that came first met an unchanged file: exact, or refused by the parse check when the edit itself parses worse)`,
      measured: `${stale} of ${drifted - firstOk} clear (${firstOk} edits of a second session came first and landed exactly)`,
      met: stale === drifted - firstOk,
    });
    const fresh = counts.get('fresh')?.get(k.id);
    const fr = rows.get('fresh');
    if (fresh && fr) {
      const codes = Object.entries(fr.refused).map(([c, n]) => `${n} ${c}`).join(', ');
      out.push({
        text: `fresh files: every edit exact or refused with a clear error (${k.id})`,
        measured: `${fresh.exact} exact, ${fresh.clear} of ${fresh.refused} refusals clear (${codes || 'none'}) of ${ran(fresh)}`,
        met: fresh.exact + fresh.clear === ran(fresh),
      });
    }
    for (const sc of scenarios.filter((s) => s.refusal)) {
      const c = counts.get(sc.id)?.get(k.id);
      if (!c || ran(c) === 0) continue;
      out.push({ text: `${sc.id}: every quote refused as ${sc.refusal} (${k.id})`, measured: `${c.clear} of ${ran(c)}`, met: c.clear === ran(c) });
    }
  }
  return out;
}
