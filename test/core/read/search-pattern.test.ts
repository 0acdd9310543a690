// The search pattern: literal escaping, smart case (escapes' letters do not count), and regex
// errors with the position where the parser stopped, table-driven.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HashlineError } from '../../../src/core/errors/errors.js';
import { compileSearchPattern, hasUpperCase } from '../../../src/core/read/search-pattern.js';

test('literal patterns match themselves, metacharacters included; the byte needle only when case-sensitive on one line', () => {
  const p = compileSearchPattern({ pattern: 'a.b(c)[d]*', regex: false });
  assert.equal(p.re.test('x a.b(c)[d]* y'), true);
  assert.equal(p.re.test('aXb(c)[d]'), false);
  assert.equal(p.needle, undefined, 'lower case: smart case is insensitive, no byte needle');
  assert.equal(compileSearchPattern({ pattern: 'Foo', regex: false }).needle, 'Foo');
  assert.equal(compileSearchPattern({ pattern: 'a\nb', regex: false, caseSensitive: true }).needle, undefined);
});

test('smart case', () => {
  const cases: Array<[string, boolean, boolean]> = [
    ['foo', false, false],
    ['Foo', false, true],
    ['\\bfoo\\S+\\W', true, false],
    ['\\p{Lu}x', true, false],
    ['[A-Z]', true, true],
    ['\\x41', true, false],
    ['Éclair', false, true],
  ];
  for (const [pattern, regex, sensitive] of cases) assert.equal(hasUpperCase(pattern, regex), sensitive, pattern);
  for (const regex of [false, true]) {
    assert.equal(compileSearchPattern({ pattern: 'foo', regex }).re.test('FOO'), true);
    assert.equal(compileSearchPattern({ pattern: 'foo', regex, caseSensitive: true }).re.test('FOO'), false);
    assert.equal(compileSearchPattern({ pattern: 'Foo', regex, caseSensitive: false }).re.test('FOO'), true);
    assert.equal(compileSearchPattern({ pattern: 'Foo', regex }).re.test('foo'), false);
  }
});

test('a bad regex is invalid_arguments with the position and reason', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['foo(bar', 7, /Unterminated group/],
    ['a)b', 1, /Unmatched '\)'/],
    ['[z-a]', 4, /Range out of order/],
    ['x{3,1}', 6, /out of order/],
    ['abc\\', 3, /\\ at end of pattern/],
    ['[abc', 4, /Unterminated character class/],
  ];
  for (const [pattern, position, reason] of cases) {
    assert.throws(
      () => compileSearchPattern({ pattern, regex: true }),
      (e: unknown) => {
        assert.ok(e instanceof HashlineError);
        assert.equal(e.code, 'invalid_arguments');
        assert.equal(e.details?.position, position, pattern);
        assert.match(String(e.details?.reason), reason);
        assert.match(e.message, new RegExp(`^invalid regular expression at position ${position}: `));
        return true;
      },
    );
  }
  assert.throws(() => compileSearchPattern({ pattern: '', regex: false }), (e: unknown) => e instanceof HashlineError && e.code === 'invalid_arguments');
  // valid patterns of the non-unicode syntax compile
  for (const ok of ['\\-', '\\/', 'a{', '(?<n>x)', '^foo$']) assert.doesNotThrow(() => compileSearchPattern({ pattern: ok, regex: true }), ok);
});

test('what cannot run in linear time is pattern_unsupported, with its position', () => {
  const cases: Array<[string, number]> = [
    ['(?<n>x)\\k<n>', 7],
    ['(a)\\1', 3],
    ['foo(?=bar)', 3],
    ['x(?!y)', 1],
    ['(?<=a)b', 0],
    ['(?<!a)b', 0],
  ];
  for (const [pattern, position] of cases) {
    assert.throws(
      () => compileSearchPattern({ pattern, regex: true }),
      (e: unknown) => e instanceof HashlineError && e.code === 'pattern_unsupported' && e.details?.position === position && /linear time/.test(e.message),
      pattern,
    );
  }
});
