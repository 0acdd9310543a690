// fs_ast_edit: ast-grep structural rewrites over files, directories and globs. Files are read and
// rewritten concurrently (many files: parsed on worker threads), then the changed ones are locked, checked
// to be unchanged on disk, written atomically (temp file and rename, fsync when the durability asks
// for it; BOM, line endings and mode kept) and recorded in the session history so fs_rollback can
// undo them. The reply never fails for its size: each file's result is sized as soon as the file is
// written (or found to need no write), diffs that no longer fit are left out, and results past a
// listing budget are counted in a note instead of listed; those listed keep the candidates' order.

import * as z from 'zod';
import { HashlineError } from '../../core/errors/errors.js';
import { capNote, diffOmitted, resultsNotListed } from '../../core/messages/ast-edit.js';
import { jsonEscapedBytes, ReplyBudget } from '../../core/read/reply-budget.js';
import { computeTag, formatHeader } from '../../core/text/tag.js';
import { expandPaths } from '../../io/tree/expand-paths.js';
import { languageForPath } from '../../lang/grammar/registry.js';
import type { RewriteOp } from '../../lang/rewrite/rewrite.js';
import { Committer, plan, type Planned } from './ast-edit-batch.js';
import type { Engine } from '../engine.js';
import { EditResultSchema, type EditResult } from './hashline-results.js';
import { defineTool } from '../tool.js';

export const DEFAULT_MAX_FILES = 1000;
/**
 * Files read and rewritten at once. (More in flight, 64, kept the workers busier but made the
 * commits of more chunks overlap in the same directories: slower, measured.)
 */
const READ_CONCURRENCY = 16;
/** Calls over at least this many files parse on worker threads (see lang/rewrite/rewrite-pool.ts). */
const PARALLEL_MIN_FILES = 64;
/**
 * Reply bytes for the results themselves (headers, paths, warnings; each counted as the reply
 * carries it: twice, JSON-escaped); diffs have a budget of their own (a read's, 4 MiB). Together
 * they stay under the 8 MiB message limit.
 */
const LISTING_BUDGET = 3 * 1024 * 1024;
/** What a result costs beyond its strings (field names, punctuation, its line numbers). */
const RESULT_OVERHEAD = 128;

const Op = z.strictObject({
  pat: z.string().meta({ guide: 'ast-grep pattern: code of the file\'s language, $NAME for one node, $$$NAME for zero or more' }),
  out: z.string().meta({ guide: 'replacement template; $NAME and $$$NAME insert what the pattern captured' }),
});

const Input = z.strictObject({
  ops: z.array(Op).meta({ guide: 'rewrites applied in order to each file' }),
  paths: z.array(z.string()).describe('! excludes').meta({ guide: 'files, directories (recursive) or globs such as src/**/*.ts; a leading ! excludes' }),
  max_files: z.number().int().min(1).max(100_000).optional().meta({ guide: `most files considered (default ${DEFAULT_MAX_FILES})` }),
});

const Output = z.object({
  results: z.array(EditResultSchema),
  notes: z.array(z.string()).optional(),
});

export type FsAstEditInput = z.infer<typeof Input>;
export type FsAstEditOutput = z.infer<typeof Output>;

/** Refuses empty `ops` or `paths` and empty or duplicate patterns (coded `invalid_arguments`). */
export function validateAstEdit(args: FsAstEditInput): void {
  const bad = (message: string, details: Record<string, unknown> = {}) => new HashlineError('invalid_arguments', message, { details });
  if (args.ops.length === 0) throw bad('`ops` is empty: give at least one {"pat": ..., "out": ...}');
  if (args.paths.length === 0 || args.paths.every((p) => p.startsWith('!'))) throw bad('`paths` is empty: give files, directories or globs to rewrite');
  const seen = new Set<string>();
  args.ops.forEach((op, i) => {
    if (op.pat.trim() === '') throw bad(`ops[${i}].pat is empty`, { op: i });
    if (seen.has(op.pat)) throw bad(`ops[${i}].pat \`${op.pat}\` is a duplicate of an earlier op`, { op: i, pat: op.pat });
    seen.add(op.pat);
  });
}

async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (next < items.length && !stopped) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (e) {
        stopped = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The new-side line numbers a unified diff shows (its hunks' context and added lines). */
function shownLines(diff: string): number[] {
  const out: number[] = [];
  for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    for (let i = 0; i < count; i++) out.push(start + i);
  }
  return out;
}

export interface ReplyBudgets {
  listing: ReplyBudget;
  diffs: ReplyBudget;
  /** Diffs left out. */
  omitted: number;
  /** Results not listed, and how many of them were rewritten. */
  unlisted: number;
  unlistedRewritten: number;
}

export function replyBudgets(listing = LISTING_BUDGET, diffs?: number): ReplyBudgets {
  return { listing: new ReplyBudget(listing), diffs: new ReplyBudget(diffs), omitted: 0, unlisted: 0, unlistedRewritten: 0 };
}

/** The result of one planned file, or null when the listing budget is spent (it is counted instead). */
export function toResult(engine: Engine, p: Planned, budget: ReplyBudgets): EditResult | null {
  const display = p.candidate.rp.display;
  const after = p.next?.text;
  const tag = after === undefined ? computeTag(p.loaded?.text ?? '') : (p.tag ?? computeTag(after));
  const result: EditResult = { path: display, file_hash: tag, header: formatHeader(display, tag), warnings: p.warnings };
  const cost = 2 * jsonEscapedBytes(result.header + result.warnings.join('\n')) + jsonEscapedBytes(display) + RESULT_OVERHEAD;
  if (budget.unlisted > 0 || !budget.listing.takeBytes(cost)) {
    budget.listing.close();
    budget.unlisted++;
    if (p.next) budget.unlistedRewritten++;
    return null;
  }
  if (!p.next) return result;
  const { diff, firstChangedLine: first } = p.next.diff;
  if (first !== undefined) result.first_changed_line = first;
  if (diff !== undefined) {
    // a diff takes at least its length in bytes: measure only one that could fit
    if (2 * diff.length <= budget.diffs.remaining && budget.diffs.takeBytes(2 * jsonEscapedBytes(diff))) {
      result.diff = diff;
      engine.history.markSeen(p.candidate.rp.real, after!, shownLines(diff));
    } else budget.omitted++;
  }
  return result;
}

function renderText(results: readonly EditResult[], notes: readonly string[], considered: number, changed: number): string {
  const parts: string[] = [];
  for (const r of results) {
    const lines = [r.header];
    if (r.first_changed_line !== undefined) lines.push(`first changed line: ${r.first_changed_line}`);
    for (const w of r.warnings) lines.push(`warning: ${w}`);
    if (r.diff) lines.push(r.diff.trimEnd());
    parts.push(lines.join('\n'));
  }
  const summary = changed === 0 ? `no matches found in ${considered} file(s); nothing was rewritten` : `${changed} of ${considered} file(s) rewritten`;
  return [...parts, ...notes.map((n) => `note: ${n}`), summary].join('\n\n');
}

/** The rewrite itself, for library use: validate, expand, plan concurrently, commit, report. */
export async function runAstEdit(engine: Engine, args: FsAstEditInput, signal: AbortSignal, progress: (done: number, total: number) => void = () => undefined): Promise<{ output: FsAstEditOutput; text: string }> {
  validateAstEdit(args);
  const ops: RewriteOp[] = args.ops.map((o) => ({ pat: o.pat, out: o.out }));
  const expansion = await expandPaths(engine.guard, args.paths, {
    maxFiles: args.max_files ?? DEFAULT_MAX_FILES,
    scope: 'write',
    signal,
    accept: (real) => languageForPath(real) !== undefined,
  });
  const notes: string[] = [];
  if (expansion.capped) notes.push(capNote(expansion.total, args.max_files ?? DEFAULT_MAX_FILES));
  let done = 0;
  // each file's result is settled as soon as it is final (written, or planned with warnings only):
  // the reply's budgets are spent in that order (see toResult)
  const budget = replyBudgets();
  const settled = new Map<Planned, EditResult | null>();
  const settle = (p: Planned) => void settled.set(p, toResult(engine, p, budget));
  const committer = new Committer(engine, ops, signal, settle);
  const parallel = expansion.candidates.length >= PARALLEL_MIN_FILES;
  let planned: Array<Planned | null>;
  try {
    planned = await mapPool(expansion.candidates, READ_CONCURRENCY, async (c) => {
      if (signal.aborted) throw new HashlineError('aborted', 'aborted');
      const p = await plan(engine, c, ops, languageForPath(c.rp.lexical), parallel);
      if (p?.next !== undefined) await committer.add(p);
      else if (p && p.warnings.length > 0) settle(p);
      progress(++done, expansion.candidates.length);
      return p;
    });
  } catch (e) {
    await committer.finish(e);
    throw e;
  }
  await committer.finish();
  const kept = planned.filter((p): p is Planned => p !== null);
  const reported = kept.filter((p) => p.next !== undefined || p.warnings.length > 0);
  // listed in the order of the candidates (every reported file was settled; any other is settled now)
  const results = reported.map((p) => (settled.has(p) ? settled.get(p)! : toResult(engine, p, budget))).filter((r): r is EditResult => r !== null);
  if (budget.omitted > 0) notes.push(diffOmitted(budget.omitted));
  if (budget.unlisted > 0) notes.push(resultsNotListed(budget.unlisted, budget.unlistedRewritten));
  const changed = reported.filter((p) => p.next !== undefined && (p.next.diff.diff !== undefined || p.next.diff.firstChangedLine !== undefined)).length;
  const output: FsAstEditOutput = notes.length > 0 ? { results, notes } : { results };
  return { output, text: renderText(results, notes, expansion.candidates.length, changed) };
}

export const fsAstEditTool = defineTool({
  name: 'fs_ast_edit',
  family: 'hashline',
  title: 'Structural rewrite (ast-grep)',
  description: [
    'Rewrites code by syntax in files, directories or globs: ast-grep pattern `pat` becomes template `out` ($NAME: one node, $$$NAME: many).',
    'Example: {"ops":[{"pat":"log($A)","out":"debug($A)"}],"paths":["src"]}',
    'No match or an unparsable pattern is a warning: fix it, retry.',
  ].join('\n'),
  guide: [
    'Rewrites code by syntax, not text, across files, directories (recursive, .gitignore honoured) or globs: each op\'s ast-grep pattern `pat` is replaced by the template `out`, ops in order. $NAME matches one node, $$$NAME zero or more; a name used twice must match equal code. Each changed file is written atomically and can be undone with fs_rollback.',
    'Example: {"ops":[{"pat":"console.log($A)","out":"logger.debug($A)"}],"paths":["src/**/*.ts"]}',
    'Returns one result per changed file (new header ¶path#TAG, first changed line, diff) or per file with warnings (no matches, a pattern that does not parse in that language, nested matches left for a second call, a generated file). After a warning, fix the pattern (a complete expression or statement of the file\'s language) and call again; after an error, fix the arguments or paths.',
  ].join('\n'),
  input: Input,
  output: Output,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(engine, args, call) {
    const { output, text } = await runAstEdit(engine, args, call.signal, (progress, total) => call.progress({ progress, total }));
    return { structured: output, text };
  },
});
