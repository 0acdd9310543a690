// shapeOfText: the shape read off a string is what decoding the string's encoding gives (textShape),
// for every string the callers hand it (no lone surrogate; a leading U+FEFF only after a BOM).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeRaw, textShape } from '../../src/core/text/text-doc.js';
import { shapeOfText } from '../../src/tools/record-change.js';

test('property: shapeOfText(raw, bom) is textShape of the bytes encodeRaw(raw, bom) writes', () => {
  const piece = fc.constantFrom('a', ' ', '\t', '\n', '\r', '\r\n', 'é', '\u{1F600}', '\uFEFF', '');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (parts, bom) => {
      const raw = parts.join('');
      fc.pre(bom || raw.charCodeAt(0) !== 0xfeff);
      assert.deepEqual(shapeOfText(raw, bom), textShape(encodeRaw(raw, bom)));
    }),
    { numRuns: 2000 },
  );
});
