// The pattern of a content search (fs_search): a literal or a JavaScript regular expression,
// compiled to one global, multi-line matcher (a literal: a RegExp of the escaped text; a regex: a
// linear-time re2js matcher, core/read/linear-regex.ts, so no pattern stalls the process). Case follows the "smart" rule unless given: sensitive
// iff the pattern holds an upper-case letter (for a regex, letters of escapes like `\S` or `\W` do
// not count). A regex that does not parse is a coded error with the position where the parser
// stopped (0-based, in UTF-16 units), found by a real ECMAScript regex parser.

import { RegExpValidator } from '@eslint-community/regexpp';
import { HashlineError } from '../errors/errors.js';
import { badRegex, emptyPattern } from '../messages/nav.js';
import { compileLinear, type LinePattern } from './linear-regex.js';

export interface SearchPatternInput {
  pattern: string;
  regex: boolean;
  /** Undefined: smart case. */
  caseSensitive?: boolean | undefined;
}

export interface SearchPattern {
  /** Global, multi-line; case-insensitive when `caseSensitive` is false. */
  readonly re: LinePattern;
  readonly caseSensitive: boolean;
  /** For a case-sensitive literal on one line: the text itself, searchable as bytes before any decoding. */
  readonly needle: string | undefined;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** True when the pattern holds an upper-case letter that is not part of an escape. */
export function hasUpperCase(pattern: string, regex: boolean): boolean {
  const plain = regex ? pattern.replace(/\\(?:[pPu]\{[^}]*\}|c[A-Za-z]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|.)/gs, '') : pattern;
  return /\p{Lu}/u.test(plain);
}

/** Where a regex source stops parsing, or null when it parses (the flags' syntax: no `u`). */
function syntaxError(source: string): { index: number; reason: string } | null {
  try {
    new RegExpValidator({ ecmaVersion: 2025 }).validatePattern(source, 0, source.length, { unicode: false, unicodeSets: false });
    return null;
  } catch (e) {
    const err = e as { index?: number; message?: string };
    const reason = (err.message ?? String(e)).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    return { index: typeof err.index === 'number' ? err.index : source.length, reason };
  }
}

export function compileSearchPattern(input: SearchPatternInput): SearchPattern {
  const { pattern, regex } = input;
  if (pattern.length === 0) throw new HashlineError('invalid_arguments', emptyPattern(), { details: { pattern } });
  const caseSensitive = input.caseSensitive ?? hasUpperCase(pattern, regex);
  const flags = caseSensitive ? 'gm' : 'gim';
  if (!regex) {
    return { re: new RegExp(escapeRegExp(pattern), flags), caseSensitive, needle: caseSensitive && !/[\r\n]/.test(pattern) ? pattern : undefined };
  }
  const bad = syntaxError(pattern);
  if (bad) {
    throw new HashlineError('invalid_arguments', badRegex(pattern, bad.index, bad.reason), {
      details: { pattern, position: bad.index, reason: bad.reason },
    });
  }
  try {
    new RegExp(pattern, flags);
  } catch (e) {
    // the parser above accepted what the engine refused: report the engine's reason at the end
    const reason = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new HashlineError('invalid_arguments', badRegex(pattern, pattern.length, reason), {
      details: { pattern, position: pattern.length, reason },
    });
  }
  return { re: compileLinear(pattern, caseSensitive), caseSensitive, needle: undefined };
}
