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
import { docText, parseDoc, serializeDoc, splitLines, type TextDoc } from '../core/text-doc.js';
import { firstChangedLine, unifiedDiff } from '../core/unified-diff.js';
import { expandPaths, type Candidate } from '../io/expand-paths.js';
import { writeAtomicBatch } from '../io/atomic-batch.js';
import { currentStamp, readVerifiedBytes, sameStamp, type FileStamp } from '../io/read-batch.js';
import { languageForPath, type LanguageInfo } from '../lang/registry.js';
import { anyOpMayMatch, rewriteText, type RewriteOp } from '../lang/rewrite.js';
import type { Engine } from './engine.js';
import { EditResultSchema, type EditResult } from './hashline-results.js';
import { defineTool } from './tool.js';

export const DEFAULT_MAX_FILES = 1000;
/** Files read and rewritten at once. */
const READ_CONCURRENCY = 16;
/** Changed files locked, checked and written together (temp files, fsync, rename) ... */
const WRITE_CHUNK = 32;
/** ... and chunks in flight at once. */
const WRITE_CHUNKS_IN_FLIGHT = 16;
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

/** A file as read for a rewrite. */
interface Loaded {
  bytes: Uint8Array;
  doc: TextDoc;
  /** LF text, BOM stripped (what tags, diffs and history use). */
  text: string;
  stamp: FileStamp;
  binary: boolean;
}

async function load(engine: Engine, c: Candidate): Promise<Loaded> {
  const { bytes, stamp } = await readVerifiedBytes(engine.guard, c.rp, 'write');
  const doc = parseDoc(bytes);
  return { bytes, doc, text: docText(doc), stamp, binary: bytes.subarray(0, 8192).includes(0) };
}

interface Planned {
  candidate: Candidate;
  loaded?: Loaded;
  /** Set when the file is to be written. */
  next?: TextDoc;
  /** The tag of the written text (set once written). */
  tag?: string;
  warnings: string[];
}

const rawOf = (doc: TextDoc) => doc.lines.map((l, i) => l + doc.endings[i]!).join('');

/** Reads one candidate and computes its rewrite; null when there is nothing to report. */
async function plan(engine: Engine, c: Candidate, ops: readonly RewriteOp[], lang: LanguageInfo | undefined): Promise<Planned | null> {
  const warnings: string[] = [];
  if (!lang) return c.explicit ? { candidate: c, warnings: [noGrammar(c.rp.display)] } : null;
  let loaded: Loaded;
  try {
    loaded = await load(engine, c);
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return null; // removed meanwhile
    throw e;
  }
  if (loaded.binary) return c.explicit ? { candidate: c, loaded, warnings: [binaryFile(c.rp.display)] } : null;
  const raw = rawOf(loaded.doc);
  if (!c.explicit && !anyOpMayMatch(raw, ops)) return null;
  const outcome = await rewriteText(lang, raw, loaded.doc.eol, ops, c.explicit);
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

/** Under the chunk's locks: re-plans files changed since they were read, writes, records history. */
async function commitChunk(engine: Engine, chunk: Planned[], ops: readonly RewriteOp[], signal: AbortSignal, written: string[], failed: Array<{ path: string; error: HashlineError }>): Promise<void> {
  await engine.locks.withLocks(chunk.map((p) => p.candidate.rp.real), async () => {
    for (const p of chunk) {
      const now = currentStamp(p.candidate.rp.real);
      if (now !== null && sameStamp(now, p.loaded!.stamp)) continue;
      const fresh = await load(engine, p.candidate).catch(() => null);
      if (fresh !== null && sameBytes(fresh.bytes, p.loaded!.bytes)) continue;
      const again = fresh === null ? null : await plan(engine, p.candidate, ops, languageForPath(p.candidate.rp.lexical));
      p.warnings = [changedDuringRewrite(p.candidate.rp.display), ...(again?.warnings ?? [])];
      if (again?.loaded) p.loaded = again.loaded;
      if (again?.next) p.next = again.next;
      else delete p.next;
    }
    if (signal.aborted) throw new HashlineError('aborted', 'aborted');
    const todo = chunk.filter((p) => p.next !== undefined);
    const outcome = await writeAtomicBatch(engine.guard, todo.map((p) => ({ rp: p.candidate.rp, data: serializeDoc(p.next!) })), { signal });
    const ok = new Set(outcome.written.map((rp) => rp.real));
    for (const p of todo) {
      if (!ok.has(p.candidate.rp.real)) continue;
      written.push(p.candidate.rp.display);
      // the replaced text becomes the newest version before the new one, so that fs_rollback ""
      // undoes exactly this rewrite
      engine.history.record(p.candidate.rp.real, p.loaded!.text);
      engine.history.reanchor(p.candidate.rp.real, p.loaded!.text);
      const after = docText(p.next!);
      p.tag = engine.history.record(p.candidate.rp.real, after) ?? computeTag(after);
    }
    for (const f of outcome.failed) {
      failed.push({ path: f.rp.display, error: f.error });
      const p = todo.find((x) => x.candidate.rp.real === f.rp.real);
      if (p) delete p.next;
    }
  }, { signal });
}

/**
 * Takes planned files as they come and commits the changed ones in chunks while planning goes on,
 * so parsing and disk waits overlap. Each chunk takes its own locks (sorted), so chunks never wait
 * on each other while holding locks.
 */
class Committer {
  readonly written: string[] = [];
  private readonly failed: Array<{ path: string; error: HashlineError }> = [];
  private buffer: Planned[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private error: unknown;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly ops: readonly RewriteOp[],
    private readonly signal: AbortSignal,
  ) {}

  private launch(): void {
    const chunk = this.buffer;
    this.buffer = [];
    if (chunk.length === 0) return;
    const p: Promise<void> = commitChunk(this.engine, chunk, this.ops, this.signal, this.written, this.failed)
      .catch((e: unknown) => {
        this.error ??= e;
      })
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  async add(p: Planned): Promise<void> {
    if (p.next === undefined || this.closed) return;
    this.buffer.push(p);
    if (this.buffer.length < WRITE_CHUNK) return;
    this.launch();
    while (this.inFlight.size >= WRITE_CHUNKS_IN_FLIGHT) await Promise.race(this.inFlight);
  }

  /** Waits for every chunk; throws the first failure, naming the files that were written. */
  async finish(failure?: unknown): Promise<void> {
    this.closed = true;
    if (failure === undefined) this.launch();
    await Promise.all(this.inFlight);
    const written = [...this.written].sort();
    const already = `${written.length} file(s) were rewritten: ${written.join(', ') || 'none'}`;
    const cause = failure ?? this.error;
    if (cause !== undefined) {
      const err = toHashlineError(cause);
      if (written.length === 0) throw err;
      throw new HashlineError(err.code, `${err.message}; ${already}`, { details: { ...err.details, written }, cause });
    }
    if (this.failed.length > 0) {
      const first = this.failed[0]!;
      throw new HashlineError(first.error.code, `fs_ast_edit: writing failed for ${this.failed.map((f) => `\`${f.path}\``).join(', ')} (${first.error.message}); ${already}`, {
        details: { failed: this.failed.map((f) => ({ path: f.path, code: f.error.code })), written },
      });
    }
  }
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

function toResult(engine: Engine, p: Planned, budget: { left: number; omitted: number }): EditResult {
  const display = p.candidate.rp.display;
  if (!p.next) {
    const tag = computeTag(p.loaded?.text ?? '');
    return { path: display, file_hash: tag, header: formatHeader(display, tag), warnings: p.warnings };
  }
  const before = p.loaded!.text;
  const after = docText(p.next);
  const tag = p.tag ?? computeTag(after);
  const result: EditResult = { path: display, file_hash: tag, header: formatHeader(display, tag), warnings: p.warnings };
  const first = firstChangedLine(before, after);
  if (first !== undefined) result.first_changed_line = first;
  const diff = unifiedDiff(display, before, after);
  if (diff !== undefined) {
    if (diff.length <= budget.left) {
      result.diff = diff;
      budget.left -= diff.length;
      engine.history.markSeen(p.candidate.rp.real, after, shownLines(diff));
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
  const committer = new Committer(engine, ops, signal);
  let planned: Array<Planned | null>;
  try {
    planned = await mapPool(expansion.candidates, READ_CONCURRENCY, async (c) => {
      if (signal.aborted) throw new HashlineError('aborted', 'aborted');
      const p = await plan(engine, c, ops, languageForPath(c.rp.lexical));
      if (p !== null) await committer.add(p);
      progress(++done, expansion.candidates.length);
      return p;
    });
  } catch (e) {
    await committer.finish(e);
    throw e;
  }
  await committer.finish();
  const kept = planned.filter((p): p is Planned => p !== null);
  const budget = { left: DIFF_BUDGET, omitted: 0 };
  const results = kept.filter((p) => p.next !== undefined || p.warnings.length > 0).map((p) => toResult(engine, p, budget));
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
