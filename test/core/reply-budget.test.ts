import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonEscapedBytes } from '../../src/core/reply-budget.js';

test('jsonEscapedBytes equals the UTF-8 size of JSON.stringify (without the quotes), fast path or not', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 })), (s: string) => {
      assert.equal(jsonEscapedBytes(s), Buffer.byteLength(JSON.stringify(s)) - 2);
    }),
    { numRuns: 3000 },
  );
});
