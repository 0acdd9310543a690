// tagOfText: the tag the durable history records for a text, from the text's own UTF-8 when at
// hand, is computeTag's for every text (trailing blanks, CR, tabs, escaped bytes, non-ASCII).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { computeTag } from '../../../src/core/text/tag.js';
import { encodeText } from '../../../src/core/text/text-codec.js';
import { tagOfText } from '../../../src/io/history/durable-history.js';

test('property: tagOfText(text, encodeText(text)) is computeTag(text)', () => {
  const piece = fc.constantFrom('a', ' ', '\t', '\n', '\r', '\r\n', 'é', '\u{1F600}', '\udc80', ' \n', '\t\n', '');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      assert.equal(tagOfText(text, encodeText(text)), computeTag(text));
      assert.equal(tagOfText(text), computeTag(text));
    }),
    { numRuns: 3000 },
  );
});

test('property: the same over texts past 4 KiB (the bytes searched natively)', () => {
  const piece = fc.constantFrom('a', ' ', '\t', '\n', '\r', '\r\n', 'é', '\u{1F600}', '\udc80', ' \n', '\t\n', '');
  const filler = 'x'.repeat(5000);
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), fc.array(piece, { maxLength: 12 }), (head, tail) => {
      const text = head.join('') + filler + tail.join('');
      assert.equal(tagOfText(text, encodeText(text)), computeTag(text));
    }),
    { numRuns: 2000 },
  );
});
