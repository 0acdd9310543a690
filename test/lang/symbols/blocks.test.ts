// resolveBlock: the block that starts on a line, null for interior, blank and closing lines.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveBlock } from '../../../src/lang/symbols/blocks.js';

const TS = [
  "import x from 'y';", //          1
  '', //                            2
  'export function foo(a: number) {', // 3
  '  const b = bar(', //            4
  '    1,', //                      5
  '  );', //                        6
  '  return a;', //                 7
  '}', //                           8
  '',
].join('\n');

test('TypeScript lines', () => {
  const want: Array<[number, [number, number] | null]> = [
    [1, [1, 1]],
    [2, null], // blank
    [3, [3, 8]],
    [4, [4, 6]], // widened from `bar(` to the whole declaration
    [5, [5, 5]],
    [6, null], // closing
    [7, [7, 7]],
    [8, null], // closing brace
    [9, null], // past the end
    [0, null],
    [-1, null],
  ];
  for (const [line, span] of want) assert.deepEqual(resolveBlock('a.ts', TS, line), span && { start: span[0], end: span[1] }, `line ${line}`);
});

test('the first method of a Python class is the method, not the class body', () => {
  const py = 'class A:\n    def f(self):\n        return 1\n\n    x = 2\n';
  assert.deepEqual(resolveBlock('a.py', py, 1), { start: 1, end: 5 });
  assert.deepEqual(resolveBlock('a.py', py, 2), { start: 2, end: 3 });
  assert.deepEqual(resolveBlock('a.py', py, 4), null);
});

test('YAML: the first key of a mapping is that pair', () => {
  const y = 'a:\n  b: 1\n  c:\n    - 1\nd: 2\n';
  assert.deepEqual(resolveBlock('a.yaml', y, 1), { start: 1, end: 4 });
  assert.deepEqual(resolveBlock('a.yaml', y, 3), { start: 3, end: 4 });
});

test('CRLF text and a file without a grammar', () => {
  assert.deepEqual(resolveBlock('a.rs', 'fn a() {\r\n    1\r\n}\r\n', 1), { start: 1, end: 3 });
  assert.equal(resolveBlock('notes.txt', 'fn a() {}\n', 1), null);
  assert.equal(resolveBlock('Makefile', 'all:\n\techo\n', 1), null);
});

test('non-ASCII text before the block', () => {
  const ts = "const s = 'Ωé😀';\nfunction g() {\n  return s;\n}\n";
  assert.deepEqual(resolveBlock('a.ts', ts, 2), { start: 2, end: 4 });
});
