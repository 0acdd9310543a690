// file_patch's two strategies over one file's text. `aider_block` places each search/replace block
// with the aider cascade (core/aider); `ast` runs each rule through the rewrite engine of
// fs_ast_edit and holds it to its expected match count (1 unless told; a rule may rewrite exactly
// one node). Both work on the text in its own line endings, apply their operations in order, and
// return the candidate with what placed it; a failure names the file and the operation and carries
// the evidence (candidate regions, the closest region, matched spans) and the call that helps next.

import { applyBlocks } from '../../../core/aider/apply-blocks.js';
import { FUZZY_THRESHOLD } from '../../../core/aider/fuzzy.js';
import type { AiderBlock, LineSpan } from '../../../core/aider/types.js';
import type { AiderMatcher, PatchStrategy } from '../../../core/config/config-schema.js';
import { HashlineError } from '../../../core/errors/errors.js';
import { composeSources } from '../../../core/text/line-sources.js';
import * as msg from '../../../core/messages/patch.js';
import { encodeRaw, type LineEnding } from '../../../core/text/text-doc.js';
import { rewriteText } from '../../../lang/rewrite/rewrite.js';
import type { LanguageInfo } from '../../../lang/grammar/registry.js';

export interface SourceText {
  /** Decoded text without its BOM, in its own line endings. */
  readonly raw: string;
  readonly bom: boolean;
  readonly eol: LineEnding;
}

export interface Placed {
  readonly operation: number;
  readonly method: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly similarity?: number;
}

export interface PatchMeta {
  readonly strategy: PatchStrategy;
  /** AST: nodes matched over all rules; aider: blocks placed. */
  readonly matches: number;
  /** The aider matcher that placed each block (AST: empty). */
  readonly matchMethods: readonly string[];
  readonly operations: number;
  readonly placements?: readonly Placed[];
}

export interface Candidate {
  readonly raw: string;
  readonly bytes: Uint8Array;
  readonly changed: boolean;
  /** For each line of `raw`, the source line it copies or -1 (when known). */
  readonly sources?: Int32Array | undefined;
  readonly meta: PatchMeta;
}

export interface AstRule {
  readonly pattern: string;
  readonly fix: string;
  readonly expectedMatches?: number | undefined;
}

const MAX_EVIDENCE_LINES = 20;
const MAX_EVIDENCE_CHARS = 2000;

/** Lines `span` of an LF text, bounded, for evidence. */
function excerpt(lf: string, span: LineSpan): string {
  const all = lf.split('\n');
  const lines = all.slice(span.startLine - 1, Math.min(span.endLine, span.startLine - 1 + MAX_EVIDENCE_LINES));
  const text = lines.join('\n');
  return text.length > MAX_EVIDENCE_CHARS ? `${text.slice(0, MAX_EVIDENCE_CHARS)}…` : text;
}

function candidate(source: SourceText, raw: string, sources: Int32Array | undefined, meta: PatchMeta): Candidate {
  const changed = raw !== source.raw;
  return { raw, bytes: encodeRaw(raw, source.bom), changed, sources: changed ? sources : undefined, meta };
}

export function runAider(display: string, source: SourceText, blocks: readonly AiderBlock[], matchers: readonly AiderMatcher[]): Candidate {
  const r = applyBlocks(source.raw, source.eol, blocks, matchers);
  if (!r.ok) {
    const op = r.operation;
    const f = r.failure;
    const base = { filePath: display, operation: op, strategy: 'aider_block', ...(op > 1 ? { linesRefer: `the text after blocks 1-${op - 1} were applied` } : {}) };
    switch (f.failure) {
      case 'ambiguous':
        throw new HashlineError('aider_ambiguous', msg.aiderAmbiguous(display, op, f.method, f.spans), {
          details: { ...base, method: f.method, candidates: f.spans, ...(f.similarity === undefined ? {} : { similarity: f.similarity }) },
          suggestedNextCall: 'file_read',
        });
      case 'no_match':
        throw new HashlineError('aider_no_match', msg.aiderNoMatch(display, op, f.closest, FUZZY_THRESHOLD), {
          details: {
            ...base,
            ...(f.closest ? { closest: { ...f.closest.span, similarity: f.closest.similarity, text: excerpt(r.lf, f.closest.span) } } : {}),
            threshold: FUZZY_THRESHOLD,
            ...(f.note ? { note: f.note } : {}),
          },
          suggestedNextCall: 'file_read',
        });
      case 'disabled':
        throw new HashlineError('aider_matcher_disabled', msg.aiderDisabled(display, op, f.method, matchers), {
          details: { ...base, matcher: f.method, enabledMatchers: matchers, ...(f.span ? { wouldMatch: f.span } : {}) },
          suggestedNextCall: 'file_capabilities',
        });
      case 'empty':
        throw new HashlineError('patch_strategy_arguments', msg.aiderEmpty(display, op), { details: base });
    }
  }
  const placements = r.placements.map((p, i) => ({
    operation: i + 1,
    method: p.method,
    startLine: p.span.startLine,
    endLine: p.span.endLine,
    ...(p.similarity === undefined ? {} : { similarity: p.similarity }),
  }));
  return candidate(source, r.raw, r.sources, {
    strategy: 'aider_block',
    matches: placements.length,
    matchMethods: placements.map((p) => p.method),
    operations: blocks.length,
    placements,
  });
}

export async function runAst(display: string, lang: LanguageInfo, source: SourceText, rules: readonly AstRule[]): Promise<Candidate> {
  let raw = source.raw;
  let sources: Int32Array | undefined;
  let matches = 0;
  for (let k = 0; k < rules.length; k++) {
    const rule = rules[k]!;
    const op = k + 1;
    const expected = rule.expectedMatches ?? 1;
    const out = await rewriteText(lang, raw, source.eol, [{ pat: rule.pattern, out: rule.fix }], true);
    const rep = out.reports[0]!;
    const base = { filePath: display, operation: op, strategy: 'ast', pattern: rule.pattern, ...(op > 1 ? { linesRefer: `the text after rules 1-${op - 1} were applied` } : {}) };
    if (rep.patternError !== undefined) {
      throw new HashlineError('pattern_error', `AST rule ${op} of \`${display}\`: the pattern does not parse as ${lang.id}: ${rep.patternError}`, {
        details: { ...base, reason: rep.patternError },
      });
    }
    const evidence = { ...base, expected, matches: rep.matches, spans: rep.spans ?? [] };
    if (rep.matches !== expected) {
      throw new HashlineError('ast_match_count', `${msg.astMatchCount(rep.matches, expected)} (rule ${op} of \`${display}\`); nothing was changed`, { details: evidence, suggestedNextCall: 'file_read' });
    }
    if (expected !== 1) throw new HashlineError('ast_rewrite_cardinality', `${msg.astCardinality} (rule ${op} of \`${display}\`)`, { details: evidence, suggestedNextCall: 'fs_ast_edit' });
    matches += rep.matches;
    if (out.raw !== raw) {
      sources = sources && out.lineSources ? composeSources(sources, out.lineSources) : out.lineSources;
      raw = out.raw;
    }
  }
  return candidate(source, raw, sources, { strategy: 'ast', matches, matchMethods: [], operations: rules.length });
}
