// Structured documents for selectors: JSON, JSONC, YAML and TOML parsed into plain values, with the
// parse errors (line and column) and, where the parser keeps them, the source range of a selected
// value. JSON is read leniently (comments and trailing commas, as tsconfig.json has them); a YAML
// file of several documents is addressed as an array of its documents; TOML's parser keeps no
// positions, so its ranges come from a scan of the text (toml-ranges.ts).

import { getNodeValue, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { parse as parseToml, TomlError } from 'smol-toml';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document } from 'yaml';
import { arrayIndex } from './json-pointer.js';
import { tomlRangeOf } from './toml-ranges.js';

export const DOCUMENT_FORMATS = ['json', 'jsonc', 'toml', 'yaml'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** Larger documents are not parsed for selectors (`document_source_too_large`). */
export const DOCUMENT_SOURCE_MAX_BYTES = 8 * 1024 * 1024;
/** Larger selections are refused (`document_result_too_large`). */
export const DOCUMENT_RESULT_MAX_BYTES = 256 * 1024;

const BY_EXTENSION: Record<string, DocumentFormat> = { json: 'json', jsonc: 'jsonc', json5: 'jsonc', toml: 'toml', yaml: 'yaml', yml: 'yaml' };

export function documentFormatFor(filePath: string): DocumentFormat | undefined {
  const dot = filePath.lastIndexOf('.');
  if (dot < 0 || dot < filePath.lastIndexOf('/')) return undefined;
  return BY_EXTENSION[filePath.slice(dot + 1).toLowerCase()];
}

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export interface SourceRange {
  start: Position;
  end: Position;
}

export interface DocumentError extends Position {
  message: string;
}

export interface ParsedDocument {
  format: DocumentFormat;
  /** The document as plain JSON-compatible data (TOML big integers as strings, dates as ISO strings). */
  value: unknown;
  errors: DocumentError[];
  /** The source range of the value at these pointer tokens, when the parser keeps positions. */
  rangeOf(tokens: readonly string[]): SourceRange | undefined;
}

/** Maps UTF-16 offsets of a text to 1-based lines and columns. */
function positions(text: string): (offset: number) => Position {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}

function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toJSON();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

function parseJsonDoc(format: 'json' | 'jsonc', text: string): ParsedDocument {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const at = positions(text);
  const nodeAt = (tokens: readonly string[]): JsonNode | undefined => {
    let node = root;
    for (const token of tokens) {
      if (!node) return undefined;
      if (node.type === 'array') {
        const i = arrayIndex(token);
        node = i === null ? undefined : node.children?.[i];
      } else if (node.type === 'object') {
        // the last property of a name wins, as JSON.parse does
        node = node.children?.filter((p) => p.children?.[0]?.value === token).pop()?.children?.[1];
      } else return undefined;
    }
    return node;
  };
  return {
    format,
    value: root ? getNodeValue(root) : undefined,
    errors: errors.map((e) => ({ ...at(e.offset), message: printParseErrorCode(e.error) })),
    rangeOf: (tokens) => {
      const node = nodeAt(tokens);
      return node ? { start: at(node.offset), end: at(node.offset + node.length) } : undefined;
    },
  };
}

function parseYamlDoc(text: string): ParsedDocument {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, merge: true, prettyErrors: false, uniqueKeys: false });
  const list: Document[] = Array.isArray(docs) ? docs : [];
  const errors: DocumentError[] = [];
  for (const d of list) {
    for (const e of d.errors) {
      const p = lineCounter.linePos(e.pos[0]);
      errors.push({ line: p.line, column: p.col, message: e.message.split('\n')[0]! });
    }
  }
  const many = list.length > 1;
  const value = many ? list.map((d) => d.toJS({ maxAliasCount: 10000 })) : list[0]?.toJS({ maxAliasCount: 10000 });
  const range = (node: unknown): SourceRange | undefined => {
    const r = (node as { range?: [number, number, number] } | null)?.range;
    if (!r) return undefined;
    const s = lineCounter.linePos(r[0]);
    const e = lineCounter.linePos(r[1]);
    return { start: { line: s.line, column: s.col }, end: { line: e.line, column: e.col } };
  };
  return {
    format: 'yaml',
    value: plain(value),
    errors,
    rangeOf: (tokens) => {
      let rest = [...tokens];
      let doc = list[0];
      if (many) {
        const i = arrayIndex(rest[0] ?? '');
        if (rest.length === 0 || i === null) return undefined;
        doc = list[i];
        rest = rest.slice(1);
      }
      if (!doc) return undefined;
      let node: unknown = doc.contents;
      for (const token of rest) {
        if (isAlias(node)) node = node.resolve(doc);
        if (isMap(node)) {
          node = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === token)?.value;
        } else if (isSeq(node)) {
          const i = arrayIndex(token);
          node = i === null ? undefined : node.items[i];
        } else return undefined;
        if (node === undefined) return undefined;
      }
      if (isAlias(node)) node = node.resolve(doc);
      return range(node);
    },
  };
}

function parseTomlDoc(text: string): ParsedDocument {
  try {
    const value = plain(parseToml(text, { integersAsBigInt: 'asNeeded' }));
    const at = positions(text);
    const rangeOf = (tokens: readonly string[]): SourceRange | undefined => {
      const r = tomlRangeOf(text, tokens);
      return r ? { start: at(r.start), end: at(r.end) } : undefined;
    };
    return { format: 'toml', value, errors: [], rangeOf };
  } catch (e) {
    const err = e as TomlError;
    const line = err instanceof TomlError ? err.line : 1;
    const column = err instanceof TomlError ? err.column : 1;
    return { format: 'toml', value: undefined, errors: [{ line, column, message: String(err.message).split('\n')[0]!.replace(/^Invalid TOML document: /, '') }], rangeOf: () => undefined };
  }
}

/** Parses a document's text; errors are reported, never thrown. */
export function parseDocument(format: DocumentFormat, text: string): ParsedDocument {
  switch (format) {
    case 'json':
    case 'jsonc':
      return parseJsonDoc(format, text);
    case 'yaml':
      return parseYamlDoc(text);
    case 'toml':
      return parseTomlDoc(text);
  }
}
