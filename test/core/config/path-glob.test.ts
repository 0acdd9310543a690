// The glob matcher: the same answers as picomatch on a grid of globs and paths (with and without
// dot files, base name or whole path), in time linear in the path where picomatch's RegExp
// backtracks for seconds; a glob that needs a real lookahead is pattern_unsupported.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import picomatch from 'picomatch';
import { compileGlob, linearGlob } from '../../../src/core/config/path-glob.js';
import { HashlineError } from '../../../src/core/errors/errors.js';

const GLOBS = ['*.ts', '*a*a*b', 'src/**/*.py', '**/*.{ts,tsx}', 'src/*', 'a/**', '**', '.github/*.yml', 'x/.*', '?(a|b).js', '[abc]*.md', '*.[jt]s', 'src/**', '**/test/*.ts', 'a?c', '{src,lib}/**/*.ts', '**/.env', '*', '@(a|b)', '+(x).ts', '*(y)z', 'foo/bar.txt', '[!a]*', 'file[0-9].txt', '\\*.ts', 'Ω*.txt'];
const PATHS = ['a.ts', 'src/a.ts', 'src/b/c.py', 'src/c.py', 'x.tsx', 'aab', 'xaxab', '.env', 'deep/.env', '.github/ci.yml', 'x/.hidden', 'a.js', 'c.js', 'abc.md', 'b.md', 'src', 'a', 'a/b', 'a/b/c', 'test/x.ts', 'p/test/x.ts', 'abc', 'lib/x/y.ts', 'src/.x/y.ts', 'foo/bar.txt', 'yyz', 'xx.ts', 'file3.txt', 'filea.txt', '*.ts', 'src/.hidden.ts', '.a.ts', 'Ωmega.txt'];

test('the same answers as picomatch', () => {
  for (const glob of GLOBS) {
    for (const dot of [true, false]) {
      for (const basename of glob.includes('/') ? [false] : [true, false]) {
        const pm = picomatch(glob, { dot, basename });
        const lin = linearGlob(glob, { dot, basename });
        for (const p of PATHS) assert.equal(lin(p), pm(p), `${glob} on ${p} (dot ${dot}, basename ${basename})`);
      }
    }
  }
});

test('*a*a*a*a*a*a*b on a long name finishes at once (picomatch: seconds for 60 characters)', () => {
  const match = compileGlob('*a*a*a*a*a*a*b');
  const t0 = performance.now();
  for (let n = 50; n <= 4000; n *= 2) assert.equal(match(`dir/${'a'.repeat(n)}`), false);
  const ms = performance.now() - t0;
  assert.ok(ms < 2_000, `${ms.toFixed(0)} ms`);
});

test('a negated extglob is pattern_unsupported; an empty glob is invalid_arguments', () => {
  assert.throws(() => compileGlob('!(x).ts'), (e: unknown) => e instanceof HashlineError && e.code === 'pattern_unsupported');
  assert.throws(() => compileGlob(' '), (e: unknown) => e instanceof HashlineError && e.code === 'invalid_arguments');
});
