// Block resolution for block reads (`fs_read` with `line`) and `replace block N` / `delete block N`
// edits: the syntactic block that starts on a line is the deepest named node starting at that
// line's first non-blank character, widened to its ancestors while they start on the same row
// (so `foo(` inside `x = foo(` gives the whole statement). Interior, blank and closing lines
// start no named node and give null, as does a file without a grammar.
// One refinement over the plain climb: it never widens into a statement list that merely begins
// at the same character (a Python `block`, a YAML `block_mapping`), since that would turn the first
// method of a class into the whole class body.

import type { SgNode } from '@ast-grep/napi';
import { parseCached } from '../parse/parse-cache.js';
import { languageForPath } from '../grammar/registry.js';

export interface LineSpan {
  /** 1-based, inclusive. */
  start: number;
  /** 1-based, inclusive. */
  end: number;
}

interface Point {
  line: number;
  column: number;
}

function before(a: Point, b: Point): boolean {
  return a.line < b.line || (a.line === b.line && a.column < b.column);
}

function same(a: Point, b: Point): boolean {
  return a.line === b.line && a.column === b.column;
}

/** The 1-based inclusive lines a node covers (a node ending right after a newline ends on the line before). */
export function nodeLines(node: SgNode): LineSpan {
  const { start, end } = node.range();
  const last = end.column === 0 && end.line > start.line ? end.line : end.line + 1;
  return { start: start.line + 1, end: last };
}

/** The text of 1-based line `line` (terminator excluded), or undefined past the end. */
function lineText(text: string, line: number): string | undefined {
  let at = 0;
  for (let i = 1; i < line; i++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return undefined;
    at = nl + 1;
  }
  if (at > text.length || (at === text.length && line > 1 && !text.endsWith('\n'))) return undefined;
  const nl = text.indexOf('\n', at);
  return (nl < 0 ? text.slice(at) : text.slice(at, nl)).replace(/\r$/, '');
}

/** The deepest named node of the tree that starts exactly at `pos`, or null. */
function deepestStartingAt(root: SgNode, pos: Point): SgNode | null {
  let found: SgNode | null = null;
  let node: SgNode = root;
  for (;;) {
    let next: SgNode | null = null;
    for (const child of node.namedChildren()) {
      const { start, end } = child.range();
      if (before(pos, start)) break;
      if (before(pos, end) || same(pos, start)) {
        next = child;
        break;
      }
    }
    if (!next) return found;
    if (same(next.range().start, pos) && String(next.kind()) !== 'ERROR') found = next;
    node = next;
  }
}

/** Kinds of nodes that hold a sequence of statements, entries or items. */
const SEQUENCE_KIND = /^(?:block|body|\w+_body|body_statement|statements?|module|program|source_file|document|stream|block_mapping|block_sequence|\w+_list|compilation_unit|translation_unit|chunk|fragment|section)$/;

function startsWith(parent: SgNode, node: SgNode): boolean {
  return same(parent.range().start, node.range().start);
}

/** Resolves the block starting on 1-based `line` of `text` to its 1-based inclusive lines. */
export function resolveBlockInTree(root: SgNode, text: string, line: number): LineSpan | null {
  if (!Number.isInteger(line) || line < 1) return null;
  const content = lineText(text, line);
  if (content === undefined) return null;
  const column = content.search(/\S/);
  if (column < 0) return null;
  let node = deepestStartingAt(root, { line: line - 1, column });
  if (!node) return null;
  const row = line - 1;
  for (let parent = node.parent(); parent && parent.parent(); parent = parent.parent()) {
    if (parent.range().start.line !== row) break;
    if (startsWith(parent, node) && SEQUENCE_KIND.test(String(parent.kind())) && nodeLines(parent).end > nodeLines(node).end) break;
    node = parent;
  }
  return nodeLines(node);
}

/**
 * The syntactic block that starts on `line` (1-based) of `text`, as 1-based inclusive lines; null
 * for interior, blank or closing lines, past the end, or when `filePath` has no grammar.
 */
export function resolveBlock(filePath: string, text: string, line: number): { start: number; end: number } | null {
  const lang = languageForPath(filePath);
  if (!lang) return null;
  const tree = parseCached(lang, text);
  if (!tree) return null;
  return resolveBlockInTree(tree.root(), text, line);
}
