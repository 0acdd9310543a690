// The decodings kept by hash: found by the hash they were kept under, the oldest dropped past the
// count or the size bound, a text too large never kept.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { textShape } from '../../src/core/text/text-doc.js';
import { decodedShape, rememberShape } from '../../src/tools/decoded-texts.js';

const keep = (text: string) => {
  const bytes = Buffer.from(text);
  const sha = createHash('sha256').update(bytes).digest('hex');
  rememberShape(sha, textShape(bytes));
  return sha;
};

test('kept by hash, oldest first out: at most 16 texts and 8 Mi UTF-16 units', () => {
  const shas = Array.from({ length: 20 }, (_, i) => keep(`text ${i}\r\n`));
  assert.equal(decodedShape(shas[0]!), undefined);
  assert.equal(decodedShape(shas[3]!), undefined);
  assert.deepEqual(decodedShape(shas[4]!), textShape(Buffer.from('text 4\r\n')));
  assert.equal(decodedShape(shas[19]!)!.text, 'text 19\n');
  // two texts of 5 Mi units each cannot both be kept; one over the bound is never kept
  const big = keep('x'.repeat(5 * 1024 * 1024));
  const big2 = keep('y'.repeat(5 * 1024 * 1024));
  assert.equal(decodedShape(big), undefined);
  assert.equal(decodedShape(big2)!.text.length, 5 * 1024 * 1024);
  // (the small texts, older than the first, went before it)
  assert.equal(decodedShape(shas[19]!), undefined);
  assert.equal(decodedShape(keep('z'.repeat(9 * 1024 * 1024))), undefined);
  assert.equal(decodedShape(big2)!.text.length, 5 * 1024 * 1024);
});
