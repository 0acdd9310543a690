// file_read's AST mode: RFC 6901 selectors over a structured document (values and, where the parser
// keeps them, source ranges), the requested symbols (kind, lines, text), or, with neither, a source
// map of the file's top-level symbols. Lines here are zero-based and end-exclusive, as in text mode,
// so a symbol's `lines` can be passed back to a text read; a selection's `range` is zero-based too
// (line and column, the end exclusive).

import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { FileFacts } from '../../core/capabilities.js';
import { DOCUMENT_RESULT_MAX_BYTES, DOCUMENT_SOURCE_MAX_BYTES, parseDocument, type SourceRange } from '../../core/documents.js';
import { HashlineError } from '../../core/errors/errors.js';
import { evaluatePointer, parsePointer } from '../../core/json-pointer.js';
import { encodeText, hasEscapedBytes } from '../../core/text/text-codec.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { parseCached } from '../../lang/parse/parse-cache.js';
import { languageById, type LanguageInfo } from '../../lang/grammar/registry.js';
import { findSymbol } from '../../lang/symbols/symbols.js';
import { sourceMap } from '../../lang/symbols/source-map.js';
import type { Engine } from '../engine.js';
import { numberPair } from '../schema-forms.js';
import { textForParse } from './file-facts.js';
import type { ReadRequest } from './file-read-request.js';

const Position = z.object({ line: z.number(), column: z.number() });
const Span = numberPair();

export const AstResultSchema = z.object({
  documentFormat: z.string().optional(),
  selections: z
    .array(z.object({ selector: z.string(), found: z.boolean(), value: z.unknown().optional(), range: z.object({ start: Position, end: Position }).optional().describe('zero-based lines and columns (UTF-16), end exclusive'), missing: z.string().optional() }))
    .optional(),
  symbols: z
    .array(z.object({ name: z.string(), found: z.boolean(), kind: z.string().optional(), lines: Span.optional(), content: z.string().optional(), lossy: z.literal(true).optional() }))
    .optional(),
  sourceMap: z
    .array(z.object({ name: z.string(), kind: z.string(), lines: Span, children: z.array(z.object({ name: z.string(), kind: z.string(), lines: Span })).optional() }))
    .optional(),
});
export type AstResult = z.infer<typeof AstResultSchema>;

/** A document range as the family reports ranges: zero-based lines and columns (UTF-16), the end exclusive, as text windows. */
function zeroBased(r: SourceRange): SourceRange {
  return { start: { line: r.start.line - 1, column: r.start.column - 1 }, end: { line: r.end.line - 1, column: r.end.column - 1 } };
}

function selections(rp: ResolvedPath, facts: FileFacts, text: string, selectors: readonly string[]): AstResult {
  const format = facts.documentFormat;
  if (format === undefined) {
    throw new HashlineError('document_format_unsupported', `Structured document inspection supports JSON, JSONC, TOML, and YAML files; \`${rp.display}\` is none of them`, {
      details: { filePath: rp.display },
    });
  }
  const tokens = selectors.map((s) => parsePointer(s));
  const doc = parseDocument(format, text);
  const first = doc.errors[0];
  if (first) {
    throw new HashlineError('document_parse_error', `\`${rp.display}\` is not valid ${format.toUpperCase()}: ${first.message} at line ${first.line}, column ${first.column}`, {
      details: { filePath: rp.display, line: first.line, column: first.column },
    });
  }
  const out = selectors.map((selector, i) => {
    const r = evaluatePointer(doc.value, tokens[i]!);
    if (!r.found) return { selector, found: false, missing: r.missing };
    const range = doc.rangeOf(tokens[i]!);
    return { selector, found: true, value: r.value, ...(range ? { range: zeroBased(range) } : {}) };
  });
  if (Buffer.byteLength(JSON.stringify(out)) > DOCUMENT_RESULT_MAX_BYTES) {
    throw new HashlineError('document_result_too_large', `Structured document result exceeds the ${DOCUMENT_RESULT_MAX_BYTES / 1024} KiB limit; use narrower selectors or text mode`, {
      details: { filePath: rp.display },
    });
  }
  return { documentFormat: format, selections: out };
}

/**
 * Lines [start, end) as text mode shows them: bytes that are not UTF-8 (escaped in the parsed text)
 * become U+FFFD by the same lenient decoding, and `lossy` says so.
 */
function lineSlice(text: string, start: number, end: number): { content: string; lossy?: true } {
  const lines = text.split('\n');
  const slice = lines.slice(start, end).join('\n') + (end < lines.length ? '\n' : '');
  if (!hasEscapedBytes(slice)) return { content: slice };
  return { content: Buffer.from(encodeText(slice)).toString('utf8'), lossy: true };
}

function symbolsOf(lang: LanguageInfo, rp: ResolvedPath, text: string, names: readonly string[]): AstResult {
  const root = parseCached(lang, text);
  if (root === null) throw new HashlineError('read_mode_unavailable', `the ${lang.id} grammar is not installed; use mode "text"`, { details: { filePath: rp.display } });
  return {
    symbols: names.map((name) => {
      const m = findSymbol(lang, root, name);
      if (!m) return { name, found: false };
      return { name, found: true, kind: m.kind, lines: [m.start - 1, m.end] as [number, number], ...lineSlice(text, m.start - 1, m.end) };
    }),
  };
}

export async function readAst(engine: Engine, rp: ResolvedPath, facts: FileFacts, bytes: Buffer | undefined, req: ReadRequest): Promise<{ sha256: string; result: AstResult }> {
  if (bytes === undefined) {
    throw new HashlineError(req.selectors ? 'document_source_too_large' : 'too_large', `\`${rp.display}\` is larger than ${DOCUMENT_SOURCE_MAX_BYTES} bytes, too large to parse; use mode "text" with a window`, {
      details: { filePath: rp.display, limit: DOCUMENT_SOURCE_MAX_BYTES },
    });
  }
  void engine;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const text = textForParse(bytes);
  if (req.selectors) return { sha256, result: selections(rp, facts, text, req.selectors) };
  const lang = facts.language === undefined ? undefined : languageById(facts.language);
  if (req.symbols) {
    if (!lang) throw new HashlineError('read_mode_unavailable', `no grammar for \`${rp.display}\`: symbols need one; use mode "text"`, { details: { filePath: rp.display } });
    return { sha256, result: symbolsOf(lang, rp, text, req.symbols) };
  }
  if (facts.documentFormat !== undefined && (!lang || !facts.grammarInstalled)) {
    // a document without an installed grammar: its top-level keys are its map
    const doc = parseDocument(facts.documentFormat, text);
    const value = doc.value;
    const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
    return { sha256, result: { documentFormat: facts.documentFormat, sourceMap: keys.map((k) => ({ name: k, kind: 'key', lines: spanOf(doc.rangeOf([k])) })) } };
  }
  if (!lang) throw new HashlineError('read_mode_unavailable', `no grammar for \`${rp.display}\`; use mode "text"`, { details: { filePath: rp.display } });
  const root = parseCached(lang, text);
  if (root === null) throw new HashlineError('read_mode_unavailable', `the ${lang.id} grammar is not installed; use mode "text"`, { details: { filePath: rp.display } });
  return { sha256, result: { sourceMap: sourceMap(lang, root) } };
}

function spanOf(range: { start: { line: number }; end: { line: number } } | undefined): [number, number] {
  return range ? [range.start.line - 1, range.end.line] : [0, 0];
}
