// Agent cost: o200k tokens (gpt-tokenizer) of what the model sends (the tool arguments as JSON)
// and reads back (the text blocks of the reply), per task: the read calls, then the edit call; plus
// each call's share of the tool definitions the host sends on every turn (the agent's profile, or
// the reference server's list, amortised over a conversation of CONVERSATION_CALLS calls), so a
// saving per call cannot hide a cost in the definitions.
// Beside each ratio, its floor: the least any line-addressed tool must move for the task (the
// function's raw text, which the agent must see, and the raw text of the lines the edit writes).

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Call } from './agents/agent.js';
import type { Target } from './corpus.js';
import type { AbstractEdit } from './oracle.js';
import { percentile } from '../lib/stats.js';
import type { TaskResult } from './runner.js';

export interface TaskTokens {
  readonly index: number;
  readonly lines: number;
  readonly readRequest: number;
  readonly readReply: number;
  readonly editRequest: number;
  readonly editReply: number;
  /** The task's calls times each call's share of the definitions. */
  readonly definitions: number;
  readonly total: number;
}

/** The calls of the conversation the definitions are amortised over. */
export const CONVERSATION_CALLS = 20;

/** Each call's share of `definitionTokens` (the model-visible definitions and instructions, sent every turn). */
export function perCallShare(definitionTokens: number): number {
  return definitionTokens / CONVERSATION_CALLS;
}

const sum = (calls: readonly Call[] | undefined, f: (c: Call) => string) => (calls ?? []).reduce((s, c) => s + countTokens(f(c)), 0);

/** A task's tokens; `perCall`: each call's share of the definitions (perCallShare). */
export function taskTokens(r: TaskResult, perCall = 0): TaskTokens | null {
  if (!r.read || !r.edit) return null;
  const t = {
    index: r.index,
    lines: r.lines,
    readRequest: sum(r.read, (c) => c.request),
    readReply: sum(r.read, (c) => c.reply),
    editRequest: sum(r.edit, (c) => c.request),
    editReply: sum(r.edit, (c) => c.reply),
    definitions: Math.round((r.read.length + r.edit.length) * perCall),
  };
  return { ...t, total: t.readRequest + t.readReply + t.editRequest + t.editReply + t.definitions };
}

/**
 * The token floor of a task: the function's lines as they are in the file (no line numbers, tags,
 * headers or notices) plus the lines the edit writes, each joined with newlines. No tool that
 * shows the agent the function and takes the new lines from it can move less.
 */
export function taskFloor(target: Target, edit: AbstractEdit): number {
  const fn = target.file.lines.slice(target.fn.start, target.fn.end + 1).join('\n');
  const rows = edit.hunks.flatMap((h) => h.rows).join('\n');
  return countTokens(fn) + (rows === '' ? 0 : countTokens(rows));
}

export interface Spread {
  readonly median: number;
  readonly p90: number;
}

export interface CostSummary {
  readonly kind: string;
  readonly tasks: number;
  readonly readRequest: number;
  readonly readReply: number;
  readonly editRequest: number;
  readonly editReply: number;
  readonly definitions: number;
  readonly total: number;
  /**
   * Per-task ratio to the anchor's tokens for the same task (absent for the anchor itself), and
   * the floor's ratio over the same tasks (when floors were given).
   */
  readonly ratio?: Spread & {
    readonly floor?: Spread;
    readonly large?: Spread & { readonly tasks: number; readonly floor?: Spread };
  };
}

const spread = (xs: readonly number[]): Spread => ({ median: percentile(xs, 50), p90: percentile(xs, 90) });

/**
 * Token sums per agent, and each agent's per-task ratio to `anchor` (only tasks both completed),
 * with the floor's ratio over the same tasks when `floors` (by task index) is given.
 */
export function costSummaries(byKind: Map<string, TaskTokens[]>, anchor: string, opts: { largeLines?: number; floors?: ReadonlyMap<number, number> } = {}): CostSummary[] {
  const largeLines = opts.largeLines ?? 500;
  const floors = opts.floors;
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
      definitions: add((t) => t.definitions),
      total: add((t) => t.total),
    };
    if (kind === anchor) return base;
    const pairs = ts
      .filter((t) => ref.has(t.index))
      .map((t) => {
        const of = ref.get(t.index)!.total;
        const floor = floors?.get(t.index);
        return { ratio: t.total / of, floor: floor === undefined ? undefined : floor / of, lines: t.lines };
      });
    const part = (ps: typeof pairs) => {
      const fl = ps.flatMap((p) => (p.floor === undefined ? [] : [p.floor]));
      return { ...spread(ps.map((p) => p.ratio)), ...(fl.length === ps.length && fl.length > 0 ? { floor: spread(fl) } : {}) };
    };
    const large = pairs.filter((p) => p.lines >= largeLines);
    return { ...base, ratio: { ...part(pairs), ...(large.length ? { large: { tasks: large.length, ...part(large) } } : {}) } };
  });
}
