// Agent cost: o200k tokens (gpt-tokenizer) of what the model sends (the tool arguments as JSON)
// and reads back (the text blocks of the reply), per task: the read calls, then the edit call.

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Call } from './agents/agent.js';
import { percentile } from '../lib/stats.js';
import type { TaskResult } from './runner.js';

export interface TaskTokens {
  readonly index: number;
  readonly lines: number;
  readonly readRequest: number;
  readonly readReply: number;
  readonly editRequest: number;
  readonly editReply: number;
  readonly total: number;
}

const sum = (calls: readonly Call[] | undefined, f: (c: Call) => string) => (calls ?? []).reduce((s, c) => s + countTokens(f(c)), 0);

export function taskTokens(r: TaskResult): TaskTokens | null {
  if (!r.read || !r.edit) return null;
  const t = {
    index: r.index,
    lines: r.lines,
    readRequest: sum(r.read, (c) => c.request),
    readReply: sum(r.read, (c) => c.reply),
    editRequest: sum(r.edit, (c) => c.request),
    editReply: sum(r.edit, (c) => c.reply),
  };
  return { ...t, total: t.readRequest + t.readReply + t.editRequest + t.editReply };
}

export interface CostSummary {
  readonly kind: string;
  readonly tasks: number;
  readonly readRequest: number;
  readonly readReply: number;
  readonly editRequest: number;
  readonly editReply: number;
  readonly total: number;
  /** Per-task ratio to the anchor's tokens for the same task (absent for the anchor itself). */
  readonly ratio?: { readonly median: number; readonly p90: number; readonly large?: { readonly tasks: number; readonly median: number; readonly p90: number } };
}

/** Token sums per agent, and each agent's per-task ratio to `anchor` (only tasks both completed). */
export function costSummaries(byKind: Map<string, TaskTokens[]>, anchor: string, largeLines = 500): CostSummary[] {
  const ref = new Map((byKind.get(anchor) ?? []).map((t) => [t.index, t]));
  return [...byKind].map(([kind, ts]) => {
    const add = (f: (t: TaskTokens) => number) => ts.reduce((s, t) => s + f(t), 0);
    const base: CostSummary = {
      kind,
      tasks: ts.length,
      readRequest: add((t) => t.readRequest),
      readReply: add((t) => t.readReply),
      editRequest: add((t) => t.editRequest),
      editReply: add((t) => t.editReply),
      total: add((t) => t.total),
    };
    if (kind === anchor) return base;
    const pairs = ts.filter((t) => ref.has(t.index)).map((t) => ({ ratio: t.total / ref.get(t.index)!.total, lines: t.lines }));
    const ratios = pairs.map((p) => p.ratio);
    const large = pairs.filter((p) => p.lines >= largeLines).map((p) => p.ratio);
    return {
      ...base,
      ratio: {
        median: percentile(ratios, 50),
        p90: percentile(ratios, 90),
        ...(large.length ? { large: { tasks: large.length, median: percentile(large, 50), p90: percentile(large, 90) } } : {}),
      },
    };
  });
}
