// What a workload is and what it reports: one row of the table, with the figures behind it, and
// the floor measured beside the pair in the same run (what the platform allows for the same work).

import type { Anchors } from './anchors.js';

/** What every workload receives (built in context.ts). */
export interface BenchContext {
  opts: BenchOptions;
  anchors: Anchors;
  tools: ReadonlySet<string>;
  serve: boolean;
  log(line: string): void;
}

export type Direction = 'lower' | 'higher';

export interface Goal {
  /** `ratio`: hashline / anchor (or / floor) in the row's unit; `absolute`: the hashline figure alone. */
  kind: 'ratio' | 'absolute';
  /** `max`: the figure must be at most `value`; `min`: at least `value`; `report`: shown, no goal. */
  bound: 'max' | 'min' | 'report';
  value: number;
  /** How the goal reads in the table, e.g. "≤ 0.25×" or "< 100 MiB". */
  text: string;
}

/** A goal-less row: the figure is reported beside its anchor. */
export const REPORT: Goal = { kind: 'ratio', bound: 'report', value: Number.NaN, text: 'report' };

/**
 * The floor of a row: the least the same work costs here (a replayed reply, one durable write, a
 * bare server, the parse alone ...), measured in the same run, in the row's unit. For a throughput
 * (direction `higher`) it is the ceiling.
 */
export interface Floor {
  /** One line: what the floor does (BENCHMARKS.md explains each). */
  name: string;
  value?: number;
  samples?: number[];
  /** A goal against the floor (hashline / floor), e.g. ≤ 1.5×. */
  goal?: Goal;
  ratio?: number;
  met?: boolean;
}

export type Status = 'measured' | 'not built' | 'anchor missing' | 'failed';

export interface Row {
  id: string;
  title: string;
  /** The issue that names the workload (0: the bench issue itself). */
  issue: number;
  status: Status;
  unit: string;
  direction: Direction;
  anchorName: string;
  hashline?: number;
  anchor?: number;
  ratio?: number;
  goal: Goal;
  floor?: Floor;
  met?: boolean;
  /** The goal against the anchor lies beyond what the floor allows (rule: reported with the floor, work moves on). */
  goalBeyondFloor?: boolean;
  note?: string;
  samples?: { hashline: number[]; anchor: number[] };
  extra?: Record<string, unknown>;
}

export interface BenchOptions {
  quick: boolean;
  /** Repetitions for the A B A B alternation of cheap workloads. */
  reps: number;
  /** Repetitions for expensive workloads (whole-tree scans, rewrites). */
  heavyReps: number;
  /** Seconds per load-generator run. */
  loadSeconds: number;
  repo: string;
  work: string;
}

export interface Workload {
  id: string;
  run(ctx: BenchContext): Promise<Row[]>;
}

function meets(goal: Goal, figure: number | undefined): boolean | undefined {
  if (figure === undefined || Number.isNaN(figure) || goal.bound === 'report') return undefined;
  return goal.bound === 'max' ? figure <= goal.value : figure >= goal.value;
}

/** Fills the ratios and `met` from the figures, the floor and the goals. */
export function finish(row: Row): Row {
  if (row.status !== 'measured' || row.hashline === undefined) return row;
  if (row.anchor !== undefined && row.anchor !== 0) row.ratio = row.hashline / row.anchor;
  const f = row.floor;
  if (f?.value !== undefined && f.value !== 0 && !Number.isNaN(f.value)) {
    f.ratio = row.hashline / f.value;
    if (f.goal) f.met = meets(f.goal, f.ratio);
    // the rule: a goal against the anchor that even the floor misses is beyond what the platform allows
    if (row.goal.kind === 'ratio' && row.anchor) {
      const floorVsAnchor = f.value / row.anchor;
      const reach = meets(row.goal, floorVsAnchor);
      if (reach === false) row.goalBeyondFloor = true;
    }
  }
  const own = meets(row.goal, row.goal.kind === 'ratio' ? row.ratio : row.hashline);
  const parts = [own, f?.met].filter((x): x is boolean => x !== undefined);
  if (parts.length > 0) row.met = parts.every(Boolean);
  return row;
}

/** A row for a workload whose hashline part has not landed yet. */
export function notBuilt(base: Omit<Row, 'status'>, what: string): Row {
  return { ...base, status: 'not built', note: `${what} not built yet` };
}

export function failed(base: Omit<Row, 'status'>, e: unknown): Row {
  const msg = e instanceof Error ? e.message : String(e);
  return { ...base, status: 'failed', note: msg.split('\n')[0]!.slice(0, 200) };
}
