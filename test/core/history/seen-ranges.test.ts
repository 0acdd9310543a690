// Seen lines as ranges: compact, order- and duplicate-insensitive, and decoded back exactly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeSeen, encodeSeen } from '../../../src/core/history/seen-ranges.js';

test('runs become ranges; a whole read of 100,000 lines is one range', () => {
  assert.equal(encodeSeen([5, 1, 2, 3, 9, 10, 3]), '1-3,5,9-10');
  assert.equal(encodeSeen(Array.from({ length: 100_000 }, (_, i) => i + 1)), '1-100000');
  assert.equal(encodeSeen([]), '');
  assert.equal(encodeSeen([0, -1, 1.5, 7]), '7');
});

test('decoding adds to a set and skips malformed parts', () => {
  assert.deepEqual([...decodeSeen('1-3,x,7', new Set([10]))].sort((a, b) => a - b), [1, 2, 3, 7, 10]);
  assert.equal(decodeSeen('').size, 0);
});

test('property: decode(encode(lines)) is the set of lines', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: 500 }), { maxLength: 200 }), (lines) => {
      assert.deepEqual([...decodeSeen(encodeSeen(lines))].sort((a, b) => a - b), [...new Set(lines)].sort((a, b) => a - b));
    }),
  );
});

test('property: lines given in increasing order encode as any order of them does', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 200 }), fc.constantFrom(0, -3, 2.5, Number.NaN), fc.nat(), (lines, bad, at) => {
      const ascending = [...lines].sort((a, b) => a - b);
      assert.equal(encodeSeen(ascending), encodeSeen([...ascending].reverse()));
      assert.equal(encodeSeen(new Set(ascending)), encodeSeen([...ascending].reverse()));
      // one bad or repeated value anywhere: the same ranges as without it
      const spoiled = [...ascending];
      spoiled.splice(at % (spoiled.length + 1), 0, bad);
      assert.equal(encodeSeen(spoiled), encodeSeen(ascending));
      if (ascending.length > 0) assert.equal(encodeSeen([...ascending, ascending[0]!]), encodeSeen(ascending));
    }),
  );
});
