// The fidelity report: outcome counts per scenario and agent, the goals and whether they are met,
// the token costs, a markdown table (for docs/BENCHMARKS.md) and an SVG chart of the outcomes.

import type { AgentKind } from './agents/agent.js';
import { cascadeMarkdown, type CascadeRow } from './cascade-report.js';
import { OUTCOMES, type Outcome } from './classify.js';
import type { TaskResult } from './runner.js';
import type { Scenario } from './scenarios.js';
import type { CostSummary } from './tokens.js';
import type { Counts, Goal } from './report-types.js';

export type { Counts, Goal } from './report-types.js';


export function countOutcomes(results: readonly TaskResult[]): Map<string, Map<string, Counts>> {
  const out = new Map<string, Map<string, Counts>>();
  for (const r of results) {
    const bySc = out.get(r.scenario) ?? new Map<string, Counts>();
    out.set(r.scenario, bySc);
    const c = bySc.get(r.kind) ?? ({ exact: 0, merged: 0, refused: 0, wrong: 0, crash: 0, 'n/a': 0, clear: 0, silent: 0 } as Counts);
    bySc.set(r.kind, c);
    c[r.judged.outcome]++;
    if (r.judged.clear) c.clear++;
    if (r.judged.silent) c.silent++;
  }
  return out;
}

const ran = (c: Counts) => OUTCOMES.filter((o) => o !== 'n/a').reduce((s, o) => s + c[o], 0);
const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);


/** The issue's goals, checked for the hashline agents (kinds of the hashline family). */
export function goals(counts: Map<string, Map<string, Counts>>, kinds: readonly AgentKind[], costs: readonly CostSummary[]): Goal[] {
  const ours = kinds.filter((k) => k.family === 'hashline').map((k) => k.id);
  const out: Goal[] = [];
  const cell = (sc: string, k: string) => counts.get(sc)?.get(k);
  const rateGoal = (sc: string[], what: 'exact' | 'merged', min: number, label: string) => {
    for (const k of ours) {
      let a = 0;
      let b = 0;
      for (const s of sc) {
        const c = cell(s, k);
        if (!c) continue;
        a += c[what] + (what === 'merged' ? c.exact : 0);
        b += ran(c);
      }
      if (b === 0) continue;
      out.push({ text: `${label} (${k})`, measured: `${a} of ${b} (${pct(a, b)})`, met: a >= min * b });
    }
  };
  rateGoal(['fresh'], 'exact', 1, 'exact 100% on fresh files');
  for (const k of ours) {
    let wrong = 0;
    let crash = 0;
    for (const bySc of counts.values()) {
      wrong += bySc.get(k)?.wrong ?? 0;
      crash += bySc.get(k)?.crash ?? 0;
    }
    out.push({ text: `0 wrong applies and 0 crashes in every scenario (${k})`, measured: `${wrong} wrong, ${crash} crashes`, met: wrong === 0 && crash === 0 });
  }
  rateGoal(['drift-elsewhere'], 'merged', 0.95, 'merged ≥ 95%: drift elsewhere');
  rateGoal(['session-chain'], 'merged', 0.95, 'merged ≥ 95%: a prior edit of the session moved the lines');
  for (const sc of ['formatter-reindent', 'formatter-trailing', 'formatter-eol']) rateGoal([sc], 'merged', 0.8, `merged ≥ 80%: ${sc}`);
  rateGoal(['moved-block'], 'merged', 0.8, 'merged ≥ 80%: moved blocks');
  for (const k of ours) {
    let refused = 0;
    let clear = 0;
    for (const bySc of counts.values()) {
      refused += bySc.get(k)?.refused ?? 0;
      clear += bySc.get(k)?.clear ?? 0;
    }
    out.push({ text: `every refusal names what changed and the next call (${k})`, measured: `${clear} of ${refused}`, met: clear === refused });
  }
  // beside each measured ratio, the floor's ratio over the same tasks (tokens.ts, taskFloor)
  const x = (v: number) => `${v.toFixed(3)}×`;
  const withFloor = (v: number, f: number | undefined) => (f === undefined ? x(v) : `${x(v)} (floor ${x(f)})`);
  const goalSpread = (s: { median: number; p90: number; floor?: { median: number; p90: number } }, max: number) => {
    const over = s.floor ? (['median', 'p90'] as const).filter((k) => s.floor![k] > max) : [];
    const below = over.length > 0 ? `; the ${over.join(' and ')} floor is above ${max}×: no line-addressed tool can meet this on this corpus` : '';
    return `median ${withFloor(s.median, s.floor?.median)}, p90 ${withFloor(s.p90, s.floor?.p90)}${below}`;
  };
  for (const c of costs) {
    if (!c.ratio || !c.kind.includes('symbol')) continue;
    out.push({ text: `symbol read + edit ≤ 0.25× the reference's tokens, median and p90 (${c.kind})`, measured: goalSpread(c.ratio, 0.25), met: c.ratio.median <= 0.25 && c.ratio.p90 <= 0.25 });
    if (c.ratio.large) {
      const l = c.ratio.large;
      out.push({ text: `… ≤ 0.15× in files of 500+ lines (${c.kind}, ${l.tasks} tasks)`, measured: goalSpread(l, 0.15), met: l.median <= 0.15 && l.p90 <= 0.15 });
    }
  }
  return out;
}

export interface ReportInput {
  readonly date: string;
  readonly seed: number;
  readonly edits: number;
  readonly files: number;
  readonly langs: Record<string, number>;
  readonly editKinds: Record<string, number>;
  readonly kinds: readonly AgentKind[];
  readonly scenarios: readonly Scenario[];
  readonly counts: Map<string, Map<string, Counts>>;
  readonly costs: readonly CostSummary[];
  readonly goals: readonly Goal[];
  /** The boundary family: cascade steps and refusals per scenario, and its goals. */
  readonly cascade: Map<string, CascadeRow>;
  readonly boundaryGoals: readonly Goal[];
  readonly seconds: number;
  readonly command: string;
}

export function markdown(r: ReportInput): string {
  const out: string[] = [];
  const langs = Object.entries(r.langs).map(([l, n]) => `${l} ${n}`).join(', ');
  const kinds = Object.entries(r.editKinds).map(([l, n]) => `${l} ${n}`).join(', ');
  out.push(`Measured ${r.date} with \`${r.command}\` (random seed ${r.seed}, ${r.seconds.toFixed(0)} s): ${r.edits} edits in ${r.files} files (${langs}; ${kinds}).`, '');
  const shown = r.kinds.filter((k) => !k.id.endsWith('-compact'));
  out.push('Per scenario: correct (exact or merged) / refused / **wrong** (a wrong apply: the file is not an intended result). n/a: the scenario does not apply to that edit.', '');
  out.push(`| scenario | ${shown.map((k) => k.label).join(' | ')} |`, `|---|${shown.map(() => '---').join('|')}|`);
  for (const sc of r.scenarios) {
    const cells = shown.map((k) => {
      const c = r.counts.get(sc.id)?.get(k.id);
      if (!c || ran(c) === 0) return '—';
      const extra = [c.crash ? `${c.crash} crash` : '', c['n/a'] ? `${c['n/a']} n/a` : ''].filter(Boolean).join(', ');
      return `${c.exact + c.merged} / ${c.refused} / ${c.wrong ? `**${c.wrong}**` : '0'}${extra ? ` (${extra})` : ''}`;
    });
    out.push(`| ${sc.title} | ${cells.join(' | ')} |`);
  }
  out.push('', 'In detail (exact, merged, refused with a clear error / all refused, wrong: silent / all, crash):', '');
  out.push('| scenario | agent | exact | merged | refused (clear) | wrong (silent) | crash | n/a |', '|---|---|---|---|---|---|---|---|');
  for (const sc of r.scenarios) {
    for (const k of shown) {
      const c = r.counts.get(sc.id)?.get(k.id);
      if (!c) continue;
      out.push(`| ${sc.id} | ${k.id} | ${c.exact} | ${c.merged} | ${c.refused} (${c.clear}) | ${c.wrong} (${c.silent}) | ${c.crash} | ${c['n/a']} |`);
    }
  }
  out.push('', ...cascadeMarkdown(r.cascade, r.scenarios));
  out.push(
    "Agent cost on fresh files (o200k tokens: the read calls, the edit request, the edit reply, and each call's share of the tool definitions and instructions the host sends every turn, the agent's profile or the reference server's list amortised over a 20-call conversation; the ratio is per task against the reference server doing the same task; the floor is the least any line-addressed tool must move for the task, the function's raw text plus the lines the edit writes, over the same reference total):",
    '',
  );
  out.push('| agent | tasks | read (requests + replies) | edit request | edit reply | definitions (amortised) | total | ratio median | ratio p90 | floor median / p90 | 500+ lines: median / p90 (floor) |', '|---|---|---|---|---|---|---|---|---|---|---|');
  const fx = (v: number) => `${v.toFixed(3)}×`;
  for (const c of r.costs) {
    const l = c.ratio?.large;
    const ratio = c.ratio
      ? [fx(c.ratio.median), fx(c.ratio.p90), c.ratio.floor ? `${fx(c.ratio.floor.median)} / ${fx(c.ratio.floor.p90)}` : '—', l ? `${fx(l.median)} / ${fx(l.p90)} (${l.tasks}; floor ${l.floor ? `${fx(l.floor.median)} / ${fx(l.floor.p90)}` : '—'})` : '—']
      : ['—', '—', '—', '—'];
    out.push(`| ${c.kind} | ${c.tasks} | ${c.readRequest + c.readReply} | ${c.editRequest} | ${c.editReply} | ${c.definitions} | ${c.total} | ${ratio.join(' | ')} |`);
  }
  out.push('', 'Goals (hashline):', '', '| goal | measured | met |', '|---|---|---|');
  for (const g of r.goals) out.push(`| ${g.text} | ${g.measured} | ${g.met ? 'met' : 'NOT met'} |`);
  if (r.boundaryGoals.length > 0) {
    out.push('', 'Goals (boundary family):', '', '| goal | measured | met |', '|---|---|---|');
    for (const g of r.boundaryGoals) out.push(`| ${g.text} | ${g.measured} | ${g.met ? 'met' : 'NOT met'} |`);
  }
  return `${out.join('\n')}\n`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const COLORS: Record<string, string> = { exact: '#1f7a3d', merged: '#6cc08b', refused: '#b8b8b8', wrong: '#d0453a', crash: '#222', 'n/a': '#f1f1f1' };

/** Stacked bars: one group per scenario, one bar per agent, segments by outcome. */
export function chartSvg(r: ReportInput): string {
  const shown = r.kinds.filter((k) => !k.id.endsWith('-compact'));
  const W = 960;
  const labelW = 330;
  const barH = 12;
  const gap = 12;
  const top = 64;
  const groupH = shown.length * (barH + 2) + gap;
  const H = top + r.scenarios.length * groupH + 30;
  const span = W - labelW - 50;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  out.push(`<text x="10" y="18" font-size="14" font-weight="bold">Edit fidelity: outcome of each edit, per scenario and tool</text>`);
  out.push(`<text x="10" y="34" fill="#555">${esc(`${r.edits} edits, seed ${r.seed}, ${r.date.slice(0, 10)}. Bars, top to bottom: ${shown.map((k) => k.label).join('; ')}.`)}</text>`);
  let lx = 10;
  for (const o of OUTCOMES) {
    out.push(`<rect x="${lx}" y="44" width="10" height="10" fill="${COLORS[o]}" stroke="#999" stroke-width="0.5"/><text x="${lx + 14}" y="53">${o === 'wrong' ? 'wrong apply' : o}</text>`);
    lx += 90;
  }
  r.scenarios.forEach((sc, g) => {
    const y0 = top + g * groupH;
    out.push(`<text x="${labelW - 8}" y="${y0 + (shown.length * (barH + 2)) / 2 + 4}" text-anchor="end">${esc(sc.title.length > 52 ? `${sc.title.slice(0, 51)}…` : sc.title)}</text>`);
    shown.forEach((k, i) => {
      const c = r.counts.get(sc.id)?.get(k.id);
      const y = y0 + i * (barH + 2);
      if (!c) return;
      const total = OUTCOMES.reduce((s, o) => s + c[o], 0);
      let x = labelW;
      for (const o of OUTCOMES) {
        if (c[o] === 0) continue;
        const w = (c[o] / total) * span;
        out.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${Math.max(0.8, w).toFixed(1)}" height="${barH}" fill="${COLORS[o]}"><title>${esc(`${k.label}: ${o} ${c[o]}`)}</title></rect>`);
        x += w;
      }
      if (c.wrong > 0) out.push(`<text x="${W - 8}" y="${y + barH - 2}" text-anchor="end" fill="#d0453a" font-weight="bold">${c.wrong}</text>`);
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
