// The `glob` filter of the navigation tools: a picomatch pattern matched against a path relative
// to the listed or searched directory; a pattern without `/` matches the base name at any depth
// (`*.ts`), one with `/` the whole relative path (`src/**/*.ts`). Dot files match.
//
// Globs run in linear time: picomatch compiles the glob, and its regular expression runs in re2js,
// not V8's backtracking engine (where `*a*a*a*a*a*a*b` takes seconds on one long name). The
// lookaheads picomatch adds only to keep `*` off `.` and `..` segments and empty names are dropped
// (walked paths never hold such segments); with `dot: false` a separate check keeps wildcards off
// dot segments. A glob needing any other lookahead (the `!(x)` extglob) is `pattern_unsupported`.

import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { HashlineError } from '../errors/errors.js';
import { badGlob } from '../messages/nav.js';

/** The lookaheads picomatch emits for dot segments and empty names, and nothing else. */
const DOT_GUARDS = new Set([
  String.raw`(?!\.{1,2}(?:\/|$))`,
  String.raw`(?!(?:^|\/)\.{1,2}(?:\/|$))`,
  String.raw`(?!\.{0,1}(?:\/|$))`,
  String.raw`(?!\.)`,
  String.raw`(?!(?:^|\/)\.)`,
  '(?=.)',
]);

/** The source without its dot-segment lookaheads, or null when another lookaround remains. */
function withoutDotGuards(source: string): string | null {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      // RE2 refuses escaped characters beyond ASCII (picomatch escapes `Ω`): they stand for themselves
      const next = source[i + 1] ?? '';
      out += next.charCodeAt(0) > 0x7f ? next : `\\${next}`;
      i++;
      continue;
    }
    if (c === '(' && source[i + 1] === '?' && (source[i + 2] === '=' || source[i + 2] === '!' || source[i + 2] === '<')) {
      if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        out += c; // a named group
        continue;
      }
      let depth = 0;
      let j = i;
      for (; j < source.length; j++) {
        if (source[j] === '\\') j++;
        else if (source[j] === '(') depth++;
        else if (source[j] === ')' && --depth === 0) break;
      }
      const group = source.slice(i, j + 1);
      if (!DOT_GUARDS.has(group)) return null;
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}

export interface GlobOptions {
  /** Wildcards match names that begin with a dot. */
  dot: boolean;
  /** Match the base name alone (picomatch's `basename`). */
  basename: boolean;
}

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const DOT_SEGMENT = /(?:^|\/)\./;

/** A linear-time matcher for `glob` (picomatch syntax), or a coded error. */
export function linearGlob(glob: string, options: GlobOptions): (path: string) => boolean {
  let source: string;
  try {
    source = picomatch.makeRe(glob, { dot: options.dot }).source;
  } catch (e) {
    throw new HashlineError('invalid_arguments', badGlob(glob, (e as Error).message), { details: { glob } });
  }
  const linear = withoutDotGuards(source);
  if (linear === null) {
    throw new HashlineError('pattern_unsupported', badGlob(glob, 'negated extglobs `!(...)` cannot run in linear time'), { details: { glob } });
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(linear);
  } catch (e) {
    throw new HashlineError('invalid_arguments', badGlob(glob, (e as Error).message), { details: { glob } });
  }
  // without `dot`, a wildcard never matches a dot segment the glob does not name itself
  const dotNamed = DOT_SEGMENT.test(glob);
  return (p: string): boolean => {
    if (p === '') return false;
    if (p === glob) return true;
    const subject = options.basename ? baseName(p) : p;
    if (!options.dot && !dotNamed && DOT_SEGMENT.test(subject)) return false;
    return re.test(subject);
  };
}

export function compileGlob(glob: string): (rel: string) => boolean {
  if (glob.trim() === '') throw new HashlineError('invalid_arguments', badGlob(glob, 'it is empty'), { details: { glob } });
  return linearGlob(glob, { dot: true, basename: !glob.includes('/') });
}
