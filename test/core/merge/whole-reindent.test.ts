// The whole-file re-indent proof: taken only when every line of the read text is the live line at
// the same number, re-indented by one rule that keeps indentations apart and shown by two lines.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wholeFileReindent } from '../../../src/core/merge/whole-reindent.js';

const double = (lines: string[]) => lines.map((l) => l.replace(/^ +/, (s) => s + s));
const READ = ['def f():', '  x = 1', '  if x:', '    return x', '', '  return 0'];

test('every line doubled in place: the rule re-indents rows like the file', () => {
  const w = wholeFileReindent(READ, double(READ));
  assert.ok(w);
  assert.deepEqual(w.rows(['  y = 2', '      deep', '', 'top']), ['    y = 2', '            deep', '', 'top']);
  // a tab was never seen: the rule cannot say what it became
  assert.equal(w.rows(['\ty = 2']), null);
});

test('tabs to 8 spaces and spaces doubled (a mixed file), kept apart: one rule for both', () => {
  const read = ['a', '\tb', '\t\tc', '  d'];
  const w = wholeFileReindent(read, read.map((l) => l.replace(/^[ \t]+/, (s) => s.replace(/\t/g, '    ').replace(/ /g, '  '))));
  assert.ok(w);
  assert.deepEqual(w.rows(['\t  e']), ['            e']);
});

test('not proven: lines added, removed or reordered, text changed, or the indentation left as it was', () => {
  const live = double(READ);
  assert.equal(wholeFileReindent(READ, [...live, 'more']), null);
  assert.equal(wholeFileReindent(READ, live.slice(1)), null);
  assert.equal(wholeFileReindent(READ, [live[0]!, live[2]!, live[1]!, ...live.slice(3)]), null);
  assert.equal(wholeFileReindent(READ, live.map((l, i) => (i === 3 ? '        return y' : l))), null);
  // only trailing blanks changed: no re-indentation to prove (the window's own rule handles that)
  assert.equal(wholeFileReindent(READ, READ.map((l) => `${l} `)), null);
});

test('not proven: one line re-indented (one line fits any rule), or lines re-indented by no single rule', () => {
  assert.equal(wholeFileReindent(READ, READ.map((l, i) => (i === 1 ? `  ${l}` : l))), null);
  // the same read indentation made two different ones
  assert.equal(wholeFileReindent(READ, READ.map((l, i) => (i === 1 ? `    ${l.trim()}` : i === 5 ? `      ${l.trim()}` : l))), null);
});

test('not proven: two read indentations made one (a tab and 8 spaces both 8 spaces now), so the lines are no longer told apart', () => {
  const read = ['int f() {', '\tif (a) {', '\t\tx();', '        }', '\t}', '}'];
  assert.equal(wholeFileReindent(read, read.map((l) => l.replace(/\t/g, '        '))), null);
});
