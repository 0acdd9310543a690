// The linear-time regex: it finds the same lines as V8's RegExp on a table of JavaScript patterns
// (escapes RE2 spells differently, `.`, `\s`, `[^]`, case), and the patterns that stall V8's
// backtracking engine (`^(a+)+$`, `[^x]*y`) finish in time linear in the text.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileLinear, toRe2Source } from '../../../src/core/read/linear-regex.js';
import { matchLines } from '../../../src/core/read/line-matches.js';

const TEXT = [
  'export function parseConfig(input: string) {',
  '  const tab\t= "a\u00a0b";',
  '\tif (x === 0x41) return "A\\u0041";',
  'line with ctrl \u0001 char and é É',
  '',
  '  return [1, 2, 3].map((n) => n * 2); // done',
  'FOO foo Foo fOO',
  'a/b/c\\d-e',
  '}',
].join('\n');

test('the same lines as V8 on a table of JavaScript patterns', () => {
  const patterns = [
    'parse\\w+',
    '^\\s*return',
    '\\bfoo\\b',
    'a\\s+b',
    'a\\sb',
    '\\u0041',
    '\\x41',
    '\\cA',
    '[^]',
    '\\d{2,}',
    'é',
    '^$',
    '\\}$',
    'a\\/b',
    '[\\-\\]]',
    '(?<name>foo)\\s',
    'x{',
    '[^\\s]+;$',
    '.\\(',
    '(?:map|filter)\\(',
    'ctrl . char',
    '[\\b]',
    '\\0',
  ];
  for (const p of patterns) {
    for (const sensitive of [true, false]) {
      const v8 = matchLines(TEXT, new RegExp(p, sensitive ? 'gm' : 'gim')).lines;
      const re2 = matchLines(TEXT, compileLinear(p, sensitive)).lines;
      assert.deepEqual(re2, v8, `${p} (${sensitive ? 'case-sensitive' : 'insensitive'}) → ${toRe2Source(p)}`);
    }
  }
});

test('exec walks matches with UTF-16 offsets, like a global RegExp', () => {
  const re = compileLinear('é+x', false);
  const text = 'ab😀cÉéx';
  const m = re.exec(text);
  assert.deepEqual(m && { index: m.index, match: m[0] }, { index: 5, match: 'Éé x'.replace(' ', '') });
  assert.equal(re.exec(text), null);
  assert.equal(re.lastIndex, 0);
});

test('patterns that stall a backtracking engine finish in linear time', () => {
  const cases: Array<[string, string]> = [
    ['^(a+)+$', `${'a'.repeat(50_000)}!`],
    ['[^x]*y', 'a'.repeat(200_000)],
    ['(a|a)*b', 'a'.repeat(100_000)],
    ['(\\w+\\s?)*$', `${'word '.repeat(20_000)}!`],
  ];
  for (const [p, text] of cases) {
    const t0 = performance.now();
    const hits = matchLines(text, compileLinear(p, true));
    const ms = performance.now() - t0;
    assert.ok(ms < 5_000, `${p} took ${ms.toFixed(0)} ms`);
    assert.equal(hits.lines.length, p === '(\\w+\\s?)*$' ? 1 : 0, p);
  }
});

test('on a long text a one-line pattern is searched window by window, with the same lines as V8', () => {
  const lines: string[] = [];
  for (let i = 0; i < 40_000; i++) lines.push(i % 997 === 0 ? `hit needle_${i} here` : i % 1201 === 0 ? '' : `filler line ${i} with words`);
  const text = `${lines.join('\n')}\nlast needle_end`;
  for (const p of ['needle_\\d+', '^$', 'needle_\\w+$', '^hit', '\\bwith\\b words$', 'line 3\\d{4} ', 'needle_end', 'here\\nfiller', 'here\\s+filler', '[^a]*needle']) {
    const v8 = matchLines(text, new RegExp(p, 'gm')).lines;
    assert.deepEqual(matchLines(text, compileLinear(p, true)).lines, v8, p);
  }
});

test('a match at the end of a long text is found without walking the text with the slow automaton', () => {
  const text = `${'a'.repeat(79)}\n`.repeat(100_000) + 'needle_42 ' + 'b'.repeat(999) + 'c'.repeat(999);
  for (const p of ['needle_\\d+', '[ab]{999}[^ab\\n]{999}']) {
    const t0 = performance.now();
    assert.deepEqual(matchLines(text, compileLinear(p, true)).lines, [100_001], p);
    const ms = performance.now() - t0;
    assert.ok(ms < 3_000, `${p}: ${ms.toFixed(0)} ms on 8 MB`);
  }
});
