// The line_range syntax: every accepted form and every malformed one, with the exact wording.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseLineRange } from '../../../src/core/read/line-range.js';

const FORMAT = (raw: string) => `line_range must be "start-end" (1-based, inclusive), got: ${raw}`;
const ORDER = (raw: string) => `line_range must satisfy 1 <= start <= end, got: ${raw}`;

test('accepted forms', () => {
  const cases: Array<[string, Array<[number, number]>]> = [
    ['1-1', [[1, 1]]],
    ['10-20', [[10, 20]]],
    [' 3 - 5 ', [[3, 5]]],
    ['2-5,10-12', [[2, 5], [10, 12]]],
    ['2-5 , 10-12', [[2, 5], [10, 12]]],
    ['10-12,2-5', [[10, 12], [2, 5]]],
    ['+3-4', [[3, 4]]],
    ['007-9', [[7, 9]]],
    ['1-4294967295', [[1, 4294967295]]],
  ];
  for (const [raw, want] of cases) {
    const r = parseLineRange(raw);
    assert.ok(r.ok, raw);
    assert.deepEqual(r.ranges.map((g) => [g.start, g.end]), want, raw);
  }
});

test('every malformed form gives the exact message', () => {
  const cases: Array<[string, string]> = [
    ['', FORMAT('')],
    ['   ', FORMAT('   ')],
    ['5', FORMAT('5')],
    ['5-', FORMAT('5-')],
    ['-5', FORMAT('-5')],
    ['a-b', FORMAT('a-b')],
    ['1-2-3', FORMAT('1-2-3')],
    ['1..3', FORMAT('1..3')],
    ['1:3', FORMAT('1:3')],
    ['1-3,', FORMAT('1-3,')],
    [',1-3', FORMAT(',1-3')],
    ['1-3,,4-5', FORMAT('1-3,,4-5')],
    ['1.5-3', FORMAT('1.5-3')],
    ['1e2-3', FORMAT('1e2-3')],
    ['1-4294967296', FORMAT('1-4294967296')],
    ['0x1-3', FORMAT('0x1-3')],
    ['0-5', ORDER('0-5')],
    ['0-0', ORDER('0-0')],
    ['5-3', ORDER('5-3')],
    ['1-2,9-4', ORDER('1-2,9-4')],
    ['5-3,x', ORDER('5-3,x')],
    ['x,5-3', FORMAT('x,5-3')],
  ];
  for (const [raw, message] of cases) {
    const r = parseLineRange(raw);
    assert.equal(r.ok, false, raw);
    assert.equal(!r.ok && r.message, message, raw);
  }
});
