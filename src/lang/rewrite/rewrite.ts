// The structural rewrite of one text: each op's pattern is matched on the LF text (small texts are
// parsed in place, yielding to the event loop every few milliseconds; large ones off the main thread
// with parseAsync, so the thread pool stays free for the disk), matches are ordered outermost first, a match that overlaps one
// already taken is skipped and reported (ast-grep's commitEdits would drop it without a word),
// the template is rendered with ast-grep's semantics, and the edits are mapped back onto the text
// as it is on disk, so every untouched line keeps its own ending and new lines get the file's.
// Ops apply in order, each to the result of the one before. Offsets are UTF-16 code units. With a
// diff label, a change also carries its diff and the tags of both texts, so that a caller that runs
// this on a worker thread has nothing left to compute on its own.

import type { SgNode, SgRoot } from '@ast-grep/napi';
import { napi } from '../grammar/napi.js';
import { HashlineError } from '../../core/errors/errors.js';
import { lfOffsets } from '../../core/text/lf-offsets.js';
import { composeSources, lineSources } from '../../core/text/line-sources.js';
import { rewriteDiff, type RewriteDiff } from '../../core/text/rewrite-diff.js';
import { computeTag } from '../../core/text/tag.js';
import { lfText } from '../../core/text/text-doc.js';
import { applyEdits, type TextEdit } from '../../core/text/text-edits.js';
import { compilePattern, patternWords, type Matcher } from './pattern-context.js';
import { isAvailable, unsupportedLanguage, type LanguageInfo } from '../grammar/registry.js';
import { parseTemplate, renderTemplate, type Template } from './rewrite-template.js';

export interface RewriteOp {
  readonly pat: string;
  readonly out: string;
}

export interface OpReport {
  readonly pat: string;
  /** Matches found (before overlaps were removed). */
  readonly matches: number;
  /** Matches rewritten. */
  readonly applied: number;
  /** 1-based lines (in the text the op ran on) of matches skipped because they overlap a rewritten one. */
  readonly overlapLines: readonly number[];
  /** Why the pattern could not be used for this grammar. */
  readonly patternError?: string;
  /** 1-based first and last lines of the first MAX_REPORTED_SPANS matches (in the text the op ran on). */
  readonly spans?: ReadonlyArray<{ readonly startLine: number; readonly endLine: number }>;
}

/** Matches whose lines a report lists (evidence for a caller that expected another count). */
export const MAX_REPORTED_SPANS = 20;

export interface RewriteOutcome {
  /** The new text in the file's own line endings (BOM excluded). */
  readonly raw: string;
  readonly reports: readonly OpReport[];
  /**
   * When the text changed: for each line of `raw`, the line of the text given it is a verbatim copy
   * of, or -1 (see core/text/line-sources.ts); the diff is read off it.
   */
  readonly lineSources?: Int32Array;
  /** When the text changed and a diff label was given: the diff of the LF texts (see core/text/rewrite-diff.ts). */
  readonly diff?: RewriteDiff;
  /**
   * With the diff: the tags (core/text/tag.ts) of the LF texts before and after, computed where the
   * rewrite ran (on a worker, they cost the calling thread nothing).
   */
  readonly tags?: { readonly before: string; readonly after: string };
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const templates = new Map<string, Template>();
function templateFor(out: string): Template {
  let t = templates.get(out);
  if (!t) {
    if (templates.size > 256) templates.clear();
    t = parseTemplate(out);
    templates.set(out, t);
  }
  return t;
}

function capturer(node: SgNode) {
  return (name: string, multi: boolean) => {
    if (multi) {
      const nodes = node.getMultipleMatches(name);
      const first = nodes[0];
      const last = nodes[nodes.length - 1];
      return first && last ? { start: first.range().start.index, end: last.range().end.index } : null;
    }
    const r = node.getMatch(name)?.range();
    return r ? { start: r.start.index, end: r.end.index } : null;
  };
}

const wordCache = new Map<string, readonly string[]>();
function wordsOf(pat: string): readonly string[] {
  let w = wordCache.get(pat);
  if (!w) {
    if (wordCache.size > 256) wordCache.clear();
    w = patternWords(pat);
    wordCache.set(pat, w);
  }
  return w;
}

/** Texts up to this many UTF-16 code units are parsed on the calling thread (well under a millisecond each). */
const SYNC_PARSE_LIMIT = 64 * 1024;
/** The longest the event loop is held by parsing before it gets a turn. */
const SLICE_MS = 8;
let sliceStart = performance.now();

async function parseText(langId: string, text: string): Promise<SgRoot> {
  if (text.length > SYNC_PARSE_LIMIT) return napi().parseAsync(langId, text);
  if (performance.now() - sliceStart > SLICE_MS) {
    await new Promise<void>((r) => setImmediate(r));
    sliceStart = performance.now();
  }
  return napi().parse(langId, text);
}

/** True when the text may hold a match: every word of the pattern occurs in it. */
function mayMatch(words: readonly string[], text: string): boolean {
  return words.every((w) => text.includes(w));
}

/** Runs one op on `raw`; returns the new raw text and the op's report. */
async function runOp(lang: LanguageInfo, raw: string, eol: string, op: RewriteOp, strict: boolean): Promise<{ raw: string; report: OpReport; sources?: Int32Array }> {
  const none: OpReport = { pat: op.pat, matches: 0, applied: 0, overlapLines: [] };
  if (!strict && !mayMatch(wordsOf(op.pat), raw)) return { raw, report: none };
  const compiled = compilePattern(lang, op.pat);
  if (!compiled.ok) return { raw, report: { ...none, patternError: compiled.reason } };
  const { lf, toRaw } = lfOffsets(raw);
  if (!mayMatch(compiled.words, lf)) return { raw, report: none };
  const root = (await parseText(lang.id, lf)).root();
  const seen = new Set<string>();
  const found: Array<{ node: SgNode; start: number; end: number }> = [];
  for (const m of compiled.matchers as Matcher[]) {
    for (const node of root.findAll(m)) {
      const r = node.range();
      const end = compiled.takesSemicolon && lf[r.end.index] === ';' ? r.end.index + 1 : r.end.index;
      const key = `${r.start.index}:${end}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push({ node, start: r.start.index, end });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const template = templateFor(op.out);
  const edits: TextEdit[] = [];
  const overlapLines: number[] = [];
  let taken = 0;
  for (const f of found) {
    if (f.start < taken) {
      overlapLines.push(lineOf(lf, f.start));
      continue;
    }
    taken = Math.max(taken, f.end);
    let text = renderTemplate(template, lf, f.start, capturer(f.node));
    if (text === lf.slice(f.start, f.end)) continue;
    if (eol !== '\n') text = text.replace(/\n/g, eol);
    edits.push({ start: toRaw(f.start), end: toRaw(f.end), text });
  }
  const spans = found.slice(0, MAX_REPORTED_SPANS).map((f) => ({ startLine: lineOf(lf, f.start), endLine: lineOf(lf, Math.max(f.start, f.end - 1)) }));
  const report: OpReport = { pat: op.pat, matches: found.length, applied: edits.length, overlapLines, spans };
  if (edits.length === 0) return { raw, report };
  const next = applyEdits(raw, edits);
  return { raw: next, report, sources: lineSources(raw, edits, next) };
}

/**
 * Rewrites `raw` (a decoded file without its BOM, in its own line endings) with `ops` in order.
 * `eol` is the ending new lines get. A pattern that does not compile is reported for every text
 * when `strict` (a file the caller named), otherwise only for texts holding the pattern's words
 * (so a sweep over many files is not flooded). With `diffLabel` the outcome of a change carries
 * its diff. Throws `unsupported_language` when the grammar is missing.
 */
export async function rewriteText(lang: LanguageInfo, raw: string, eol: string, ops: readonly RewriteOp[], strict = true, diffLabel?: string): Promise<RewriteOutcome> {
  if (!isAvailable(lang)) throw unsupportedLanguage(lang);
  const reports: OpReport[] = [];
  let text = raw;
  let sources: Int32Array | undefined;
  for (const op of ops) {
    const r = await runOp(lang, text, eol, op, strict);
    text = r.raw;
    reports.push(r.report);
    if (r.sources) sources = sources ? composeSources(sources, r.sources) : r.sources;
  }
  if (text === raw) return { raw: text, reports };
  const changed: RewriteOutcome = sources ? { raw: text, reports, lineSources: sources } : { raw: text, reports };
  if (diffLabel === undefined) return changed;
  return { ...changed, diff: rewriteDiff(diffLabel, raw, text, sources), tags: { before: computeTag(lfText(raw)), after: computeTag(lfText(text)) } };
}

/** True when some op could match `raw` at all: every word of its pattern occurs in it (no parse). */
export function anyOpMayMatch(raw: string, ops: readonly RewriteOp[]): boolean {
  return ops.some((op) => mayMatch(wordsOf(op.pat), raw));
}
