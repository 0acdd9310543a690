// A user's JavaScript regular expression run in linear time: the pattern (parsed by a real
// ECMAScript parser) is rewritten into RE2 syntax and matched by re2js, whose time grows with the
// text, never exponentially with the pattern, so no pattern can stall the process (`^(a+)+$` and
// `[^x]*y` take V8's backtracking engine seconds on a few kilobytes). What RE2 cannot run in
// linear time (lookahead, lookbehind, back-references) is refused with `pattern_unsupported`.
// JavaScript meanings are kept where RE2 differs: `.` stops at \r, \u2028 and \u2029 too, `\s` is
// JavaScript's white space, `[^]` is any character, `\uXXXX` and `\cX` escapes are translated.

import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import type { Node } from '@eslint-community/regexpp/ast';
import { RE2JS } from 're2js';
import { HashlineError } from '../errors/errors.js';
import { patternUnsupported } from '../messages/nav.js';

/** The part of RegExp that line matching uses (lastIndex, exec, test). */
export interface LinePattern {
  lastIndex: number;
  exec(text: string): { index: number; 0: string } | null;
  test(text: string): boolean;
}

const JS_SPACE = String.raw`\t\n\x0B\f\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`;
const hex = (cp: number) => `\\x{${cp.toString(16).toUpperCase()}}`;

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The RE2 source of a JavaScript pattern (no `u` flag), or a `pattern_unsupported` error. */
export function toRe2Source(pattern: string): string {
  return translate(pattern).source;
}

/** The RE2 source, and whether every match lies within one line (nothing in it matches `\n`). */
function translate(pattern: string): { source: string; oneLine: boolean } {
  let oneLine = true;
  const ast = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(pattern, 0, pattern.length, { unicode: false, unicodeSets: false });
  const edits: Edit[] = [];
  const refuse = (node: Node, what: string): never => {
    throw new HashlineError('pattern_unsupported', patternUnsupported(pattern, node.start, what), { details: { pattern, position: node.start, feature: what } });
  };
  const inClass = (node: Node) => node.parent?.type === 'CharacterClass' || node.parent?.type === 'CharacterClassRange';
  visitRegExpAST(ast, {
    onAssertionEnter(node) {
      if (node.kind === 'lookahead' || node.kind === 'lookbehind') refuse(node, node.kind);
    },
    onBackreferenceEnter(node) {
      refuse(node, 'a back-reference');
    },
    onCharacterEnter(node) {
      // escapes RE2 spells differently (\uXXXX, \cX, \0, octal, `\b` in a class, identity escapes of letters)
      if (node.value === 0x0a && !inClass(node)) oneLine = false;
      if (node.raw.startsWith('\\') && !/^\\(?:[\\^$.*+?()[\]{}|/\-tnrfv]|x[0-9A-Fa-f]{2})$/.test(node.raw)) {
        edits.push({ start: node.start, end: node.end, text: hex(node.value) });
      }
    },
    onCharacterSetEnter(node) {
      if (!inClass(node) && (node.kind === 'space' ? !node.negate : node.kind !== 'any' && node.negate)) oneLine = false;
      if (node.kind === 'any') edits.push({ start: node.start, end: node.end, text: String.raw`[^\n\r\x{2028}\x{2029}]` });
      else if (node.kind === 'space' && !inClass(node)) edits.push({ start: node.start, end: node.end, text: `[${node.negate ? '^' : ''}${JS_SPACE}]` });
      else if (node.kind === 'space' && !node.negate) edits.push({ start: node.start, end: node.end, text: JS_SPACE });
    },
    onCharacterClassEnter(node) {
      // one class, no quantifier: V8 answers at once
      if (new RegExp(node.raw).test('\n')) oneLine = false;
      if (node.elements.length === 0) {
        edits.push({ start: node.start, end: node.end, text: node.negate ? String.raw`[\x{0}-\x{10FFFF}]` : String.raw`[^\x{0}-\x{10FFFF}]` });
      }
    },
  });
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    if (e.start < at) continue; // inside an element already replaced (an empty class holds none)
    out += pattern.slice(at, e.start) + e.text;
    at = e.end;
  }
  return { source: out + pattern.slice(at), oneLine };
}

/** Beyond this many UTF-16 units, a one-line pattern is looked for window by window. */
const WINDOW = 64 * 1024;

/** A RegExp-like pattern (global, multi-line) matched by re2js in time linear in the text. */
export class LinearRegExp implements LinePattern {
  lastIndex = 0;
  private text: string | undefined;
  private matcher: ReturnType<RE2JS['matcher']> | undefined;

  constructor(
    private readonly re: RE2JS,
    /** No match spans lines: a search may go window by window (whole lines each). */
    private readonly oneLine: boolean,
  ) {}

  exec(text: string): { index: number; 0: string } | null {
    const from = this.lastIndex;
    let found: [number, number] | null;
    if (from > text.length) found = null;
    else if (this.oneLine && text.length - from > WINDOW && (from === 0 || text.charCodeAt(from - 1) === 0x0a)) found = this.windowed(text, from);
    else {
      if (this.text !== text || this.matcher === undefined) {
        this.text = text;
        this.matcher = this.re.matcher(text);
      }
      found = this.matcher.find(from) ? [this.matcher.start(), this.matcher.end()] : null;
    }
    if (found === null) {
      this.lastIndex = 0;
      return null;
    }
    const [start, end] = found;
    this.lastIndex = end === start ? end + 1 : end;
    return { index: start, 0: text.slice(start, end) };
  }

  /**
   * The first match from `from` (a line start), looked for in windows of whole lines: the fast
   * automaton says whether a window holds one, and only that window is searched for where. Exact
   * for a pattern whose matches never span lines (`^`, `$` and `\b` see the same line edges).
   */
  private windowed(text: string, from: number): [number, number] | null {
    for (let start = from; ; ) {
      let end = text.indexOf('\n', Math.min(text.length, start + WINDOW));
      if (end < 0) end = text.length;
      const slice = text.slice(start, end);
      if (this.re.test(slice)) {
        const m = this.re.matcher(slice);
        if (m.find()) return [start + m.start(), start + m.end()];
      }
      if (end >= text.length) return null;
      start = end + 1;
    }
  }

  test(text: string): boolean {
    if (this.lastIndex === 0) return this.re.test(text);
    return this.exec(text) !== null;
  }
}

/** Compiles a JavaScript pattern (already known to parse) for linear-time matching. */
export function compileLinear(pattern: string, caseSensitive: boolean): LinearRegExp {
  const { source, oneLine } = translate(pattern);
  const flags = RE2JS.MULTILINE | (caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  try {
    return new LinearRegExp(RE2JS.compile(source, flags), oneLine);
  } catch (e) {
    const reason = (e as Error).message.replace(/^error parsing regexp: /, '');
    throw new HashlineError('pattern_unsupported', patternUnsupported(pattern, pattern.length, reason), { details: { pattern, position: pattern.length, feature: reason } });
  }
}
