import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReceiptBook, type ReceiptBinding } from '../../src/core/receipt-book.js';

const b: ReceiptBinding = { tool: 'file_patch', paths: ['a.ts'], sourceSha256: ['s1'], candidateSha256: ['c1'], generation: 1 };
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
};

test('a receipt commits once; a replay is refused', () => {
  const book = new ReceiptBook();
  const id = book.issue(b);
  assert.match(id, /^pr_[A-Za-z0-9_-]{24}$/);
  const r = book.reserve(id, b);
  assert.equal(code(() => book.reserve(id, b)), 'preview_receipt_in_use');
  r.consume();
  assert.equal(code(() => book.reserve(id, b)), 'preview_receipt_invalid');
});

test('a receipt is bound to its candidate, paths, sources and generation', () => {
  const book = new ReceiptBook();
  for (const other of [{ ...b, candidateSha256: ['c2'] }, { ...b, paths: ['b.ts'] }, { ...b, sourceSha256: ['s2'] }, { ...b, generation: 2 }, { ...b, extra: '{"sql":"required"}' }]) {
    const id = book.issue(b);
    assert.equal(code(() => book.reserve(id, other)), 'preview_receipt_invalid');
    assert.equal(code(() => book.reserve(id, b)), 'preview_receipt_invalid', 'a mismatch spends the receipt');
  }
});

test('release allows a retry; invalidate does not; expiry is enforced', () => {
  let now = 0;
  const book = new ReceiptBook({ ttlMs: 1000, now: () => now });
  const id = book.issue(b);
  book.reserve(id, b).release();
  book.reserve(id, b).invalidate();
  assert.equal(code(() => book.reserve(id, b)), 'preview_receipt_invalid');
  const id2 = book.issue(b);
  now = 1001;
  assert.equal(code(() => book.reserve(id2, b)), 'preview_receipt_expired');
});
