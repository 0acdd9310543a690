// What a workload is and what it reports: one row of the table, with the figures behind it.

export type Direction = 'lower' | 'higher';

export interface Goal {
  /** `ratio`: hashline / anchor in the row's unit; `absolute`: the hashline figure alone. */
  kind: 'ratio' | 'absolute';
  /** `max`: the figure must be at most `value`; `min`: at least `value`. */
  bound: 'max' | 'min';
  value: number;
  /** How the goal reads in the table, e.g. "≤ 0.25×" or "< 100 MiB". */
  text: string;
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
  met?: boolean;
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
  run(ctx: import('./context.js').BenchContext): Promise<Row[]>;
}

/** Fills ratio and met from the figures and the goal. */
export function finish(row: Row): Row {
  if (row.status !== 'measured' || row.hashline === undefined) return row;
  if (row.goal.kind === 'ratio') {
    if (row.anchor === undefined || row.anchor === 0) return row;
    row.ratio = row.hashline / row.anchor;
  }
  const figure = row.goal.kind === 'ratio' ? row.ratio : row.hashline;
  if (figure !== undefined) row.met = row.goal.bound === 'max' ? figure <= row.goal.value : figure >= row.goal.value;
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
