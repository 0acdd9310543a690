// Parse health of a source text: how many ERROR nodes its grammar finds and where the first one is.
// The boundary tools report it (file_capabilities) and compare it before and after a patch.

import type { NapiConfig } from '@ast-grep/napi';
import type { ParseHealth } from '../../core/capabilities.js';
import { parseCached } from './parse-cache.js';
import type { LanguageInfo } from '../grammar/registry.js';

const ERROR_RULE = { rule: { kind: 'ERROR' } } as unknown as NapiConfig;

export function sourceParseHealth(lang: LanguageInfo, text: string): ParseHealth {
  const root = parseCached(lang, text);
  if (root === null) return { status: 'unsupported', note: `the ${lang.id} grammar is not installed` };
  const errors = root.root().findAll(ERROR_RULE);
  if (errors.length === 0) return { status: 'parseable', errorCount: 0 };
  const first = errors.reduce((a, b) => (a.range().start.index <= b.range().start.index ? a : b)).range().start;
  return { status: 'invalid', errorCount: errors.length, firstError: { line: first.line + 1, column: first.column + 1 } };
}

/** 1-based positions of the first `limit` ERROR nodes, in source order; null when the grammar is missing. */
export function sourceErrorPositions(lang: LanguageInfo, text: string, limit = 50): Array<{ line: number; column: number }> | null {
  const root = parseCached(lang, text);
  if (root === null) return null;
  return root
    .root()
    .findAll(ERROR_RULE)
    .map((n) => n.range().start)
    .sort((a, b) => a.index - b.index)
    .slice(0, limit)
    .map((p) => ({ line: p.line + 1, column: p.column + 1 }));
}
