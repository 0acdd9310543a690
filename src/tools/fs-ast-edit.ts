// fs_ast_edit: ast-grep structural rewrites over files, directories and globs. Files are read and
// rewritten concurrently (parsing off the main thread), then the changed ones are locked, checked
// to be unchanged on disk, written atomically (temp file, fsync, rename; BOM, line endings and
// mode kept) and recorded in the session history so fs_rollback can undo them.

import { z } from 'zod';
import {
  binaryFile,
  capNote,
  changedDuringRewrite,
  diffOmitted,
  noGrammar,
  noMatches,
  overlapsSkipped,
  patternUnparsable,
} from '../core/messages/ast-edit.js';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { generatedMarker, generatedRefusal } from '../core/generated.js';
import { computeTag, formatHeader } from '../core/tag.js';
import { docText, splitLines, type TextDoc } from '../core/text-doc.js';
import { firstChangedLine, unifiedDiff } from '../core/unified-diff.js';
import { expandPaths, type Candidate } from '../io/expand-paths.js';
import { loadTextFile, saveDoc, type LoadedFile } from '../io/text-file.js';
import { languageForPath, type LanguageInfo } from '../lang/registry.js';
import { anyOpMayMatch, rewriteText, type RewriteOp } from '../lang/rewrite.js';
import type { Engine } from './engine.js';
import { EditResultSchema, type EditResult } from './hashline-results.js';
import { defineTool } from './tool.js';

export const DEFAULT_MAX_FILES = 1000;
/** Files read and rewritten at once. */
const READ_CONCURRENCY = 16;
/** Files written (temp file, fsync, rename) at once. */
const WRITE_CONCURRENCY = 64;
/** Diff text returned per call, in UTF-16 code units; beyond it diffs are left out with a note. */
const DIFF_BUDGET = 2 * 1024 * 1024;

const Op = z.strictObject({
  pat: z.string().describe('ast-grep pattern: code of the file\'s language, $NAME for one node, $$$NAME for zero or more'),
  out: z.string().describe('replacement template; $NAME and $$$NAME insert what the pattern captured'),
});

const Input = z.strictObject({
  ops: z.array(Op).describe('rewrites applied in order to each file'),
  paths: z.array(z.string()).describe('files, directories (recursive) or globs such as src/**/*.ts; a leading ! excludes'),
  max_files: z.number().int().min(1).max(100_000).optional().describe(`most files considered (default ${DEFAULT_MAX_FILES})`),
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
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

interface Planned {
  candidate: Candidate;
  loaded?: LoadedFile;
  /** Set when the file is to be written. */
  next?: TextDoc;
  warnings: string[];
}

const rawOf = (doc: TextDoc) => doc.lines.map((l, i) => l + doc.endings[i]!).join('');

/** Reads one candidate and computes its rewrite; null when there is nothing to report. */
async function plan(engine: Engine, c: Candidate, ops: readonly RewriteOp[], lang: LanguageInfo | undefined): Promise<Planned | null> {
  const warnings: string[] = [];
  if (!lang) return c.explicit ? { candidate: c, warnings: [noGrammar(c.rp.display)] } : null;
  let loaded: LoadedFile;
  try {
    loaded = await loadTextFile(engine.guard, c.rp, 'write');
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return null; // removed meanwhile
    throw e;
  }
  if (loaded.binary) return c.explicit ? { candidate: c, loaded, warnings: [binaryFile(c.rp.display)] } : null;
  const raw = rawOf(loaded.doc);
  if (!anyOpMayMatch(lang, raw, ops)) {
    return c.explicit ? { candidate: c, loaded, warnings: ops.map((op) => noMatches(op.pat)) } : null;
  }
  const outcome = await rewriteText(lang, raw, loaded.doc.eol, ops);
  for (const r of outcome.reports) {
    if (r.patternError !== undefined) warnings.push(patternUnparsable(r.pat, lang.id, r.patternError));
    else if (r.matches === 0 && c.explicit) warnings.push(noMatches(r.pat));
    if (r.overlapLines.length > 0) warnings.push(overlapsSkipped(r.pat, r.overlapLines));
  }
  if (outcome.raw === raw) return warnings.length > 0 ? { candidate: c, loaded, warnings } : null;
  const marker = generatedMarker(loaded.text);
  if (marker !== null) return { candidate: c, loaded, warnings: [generatedRefusal(c.rp.display, marker)] };
  const { lines, endings } = splitLines(outcome.raw);
  const next: TextDoc = { bom: loaded.doc.bom, lines, endings, eol: loaded.doc.eol, utf8: loaded.doc.utf8 };
  return { candidate: c, loaded, next, warnings };
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** Under the locks: re-plans files that changed since they were read, then writes and records them. */
async function commit(engine: Engine, planned: Planned[], ops: readonly RewriteOp[], signal: AbortSignal): Promise<void> {
  const writes = planned.filter((p) => p.next !== undefined);
  if (writes.length === 0) return;
  await engine.locks.withLocks(writes.map((p) => p.candidate.rp.real), async () => {
    await mapPool(writes, READ_CONCURRENCY, async (p) => {
      const fresh = await loadTextFile(engine.guard, p.candidate.rp, 'write');
      if (sameBytes(fresh.bytes, p.loaded!.bytes)) return;
      const again = await plan(engine, p.candidate, ops, languageForPath(p.candidate.rp.lexical));
      p.loaded = again?.loaded ?? fresh;
      p.warnings = [changedDuringRewrite(p.candidate.rp.display), ...(again?.warnings ?? [])];
      if (again?.next) p.next = again.next;
      else delete p.next;
    });
    if (signal.aborted) throw new HashlineError('aborted', 'aborted');
    const written: string[] = [];
    const failed: Array<{ path: string; error: HashlineError }> = [];
    await mapPool(writes, WRITE_CONCURRENCY, async (p) => {
      if (!p.next) return;
      try {
        await saveDoc(engine.guard, p.candidate.rp, p.next, { signal });
        written.push(p.candidate.rp.display);
        engine.history.record(p.candidate.rp.real, p.loaded!.text);
        engine.history.record(p.candidate.rp.real, docText(p.next));
      } catch (e) {
        failed.push({ path: p.candidate.rp.display, error: toHashlineError(e) });
      }
    });
    if (failed.length > 0) {
      const first = failed[0]!;
      throw new HashlineError(first.error.code, `fs_ast_edit: writing failed for ${failed.map((f) => `\`${f.path}\``).join(', ')} (${first.error.message}); ${written.length} other file(s) were rewritten: ${written.sort().join(', ') || 'none'}`, {
        details: { failed: failed.map((f) => ({ path: f.path, code: f.error.code })), written: written.sort() },
      });
    }
  }, { signal });
}

function toResult(p: Planned, budget: { left: number; omitted: number }): EditResult {
  const display = p.candidate.rp.display;
  if (!p.next) {
    const tag = p.loaded?.tag ?? computeTag('');
    return { path: display, file_hash: tag, header: formatHeader(display, tag), warnings: p.warnings };
  }
  const before = p.loaded!.text;
  const after = docText(p.next);
  const tag = computeTag(after);
  const result: EditResult = { path: display, file_hash: tag, header: formatHeader(display, tag), warnings: p.warnings };
  const first = firstChangedLine(before, after);
  if (first !== undefined) result.first_changed_line = first;
  const diff = unifiedDiff(display, before, after);
  if (diff !== undefined) {
    if (diff.length <= budget.left) {
      result.diff = diff;
      budget.left -= diff.length;
    } else budget.omitted++;
  }
  return result;
}

function renderText(results: readonly EditResult[], notes: readonly string[], considered: number): string {
  const parts: string[] = [];
  for (const r of results) {
    const lines = [r.header];
    if (r.first_changed_line !== undefined) lines.push(`first changed line: ${r.first_changed_line}`);
    for (const w of r.warnings) lines.push(`warning: ${w}`);
    if (r.diff) lines.push(r.diff.trimEnd());
    parts.push(lines.join('\n'));
  }
  const changed = results.filter((r) => r.diff !== undefined || r.first_changed_line !== undefined).length;
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
  const planned = await mapPool(expansion.candidates, READ_CONCURRENCY, async (c) => {
    if (signal.aborted) throw new HashlineError('aborted', 'aborted');
    const p = await plan(engine, c, ops, languageForPath(c.rp.lexical));
    progress(++done, expansion.candidates.length);
    return p;
  });
  const kept = planned.filter((p): p is Planned => p !== null);
  await commit(engine, kept, ops, signal);
  const budget = { left: DIFF_BUDGET, omitted: 0 };
  const results = kept.filter((p) => p.next !== undefined || p.warnings.length > 0).map((p) => toResult(p, budget));
  if (budget.omitted > 0) notes.push(diffOmitted(budget.omitted));
  const output: FsAstEditOutput = notes.length > 0 ? { results, notes } : { results };
  return { output, text: renderText(results, notes, expansion.candidates.length) };
}

export const fsAstEditTool = defineTool({
  name: 'fs_ast_edit',
  family: 'hashline',
  title: 'Structural rewrite (ast-grep)',
  description: [
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
