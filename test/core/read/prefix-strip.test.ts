// Legacy display-prefix stripping before a write: what is stripped, what is left alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripWritePrefixes } from '../../../src/core/read/prefix-strip.js';

test('prefix strip table', () => {
  const cases: Array<[string, string, string, boolean]> = [
    ['plain text', 'a\nb\n', 'a\nb\n', false],
    ['N: on every line', '1:foo\n2:  bar\n', 'foo\n  bar\n', true],
    ['N: with blank lines between', '1:a\n\n3:c', 'a\n\nc', true],
    ['>>N: marker', '>>12:x\n13:y\n', 'x\ny\n', true],
    ['>>>N: marker', '>>>12:x\n 13:y\n', 'x\ny\n', true],
    ['+N: mixed forms', '+1:a\n-2:b\n*3:c\n4:d\n', 'a\nb\nc\nd\n', true],
    ['one line unprefixed: nothing stripped', '1:a\nb\n', '1:a\nb\n', false],
    ['old 3-hex header dropped', '¶a.ts#1AB\n1:x\n2:y\n', 'x\ny\n', true],
    ['read notice dropped', '1:x\n[3 more lines in file. Use :L4 to continue]\n', 'x\n', true],
    ['+ on half of the lines', '+a\n+b\nc\nd\n', 'a\nb\nc\nd\n', true],
    ['+ on less than half', '+a\nb\nc\n', '+a\nb\nc\n', false],
    ['++ is not a + prefix', '++i;\n++j;\n', '++i;\n++j;\n', false],
    ['legacy [path#hash] header then N:', '[src/a.ts#1a2b]\n1:x\n2:y\n', 'x\ny\n', true],
    ['legacy header alone', '[src/a.ts#1a2b]\nx\ny\n', 'x\ny\n', true],
    ['CR removed when stripping', '1:a\r\n2:b\r\n', 'a\nb\n', true],
    ['current format is not stripped', '¶a.ts#1A2B\n1| x\n2| y\n', '¶a.ts#1A2B\n1| x\n2| y\n', false],
    ['times are content', 'at 10:30\n', 'at 10:30\n', false],
  ];
  for (const [name, input, text, stripped] of cases) {
    assert.deepEqual(stripWritePrefixes(input), { text, stripped }, name);
  }
});

test('a stripped text keeps the trailing newline it had, and only that', () => {
  assert.equal(stripWritePrefixes('1:a\n2:b').text, 'a\nb');
  assert.equal(stripWritePrefixes('1:a\n2:b\n').text, 'a\nb\n');
});
