// Preview receipts: one use, bound to file, session, configuration; TTL; per-session limits;
// reservations (consume, release, invalidate) and concurrent replay; the texts of spec/boundary.md.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_CANDIDATE_BYTES, MAX_SESSION_BYTES, MAX_SESSION_RECEIPTS, RECEIPT_TTL_MS, ReceiptBook, type ReceiptBinding } from '../../src/core/receipt-book.js';

const b: ReceiptBinding = { filePath: '/r/a.ts', sessionId: 's1', generation: 1, identity: 'id1', sourceSha256: 's'.repeat(64), candidateSha256: 'c'.repeat(64) };
const cand = new Uint8Array([1, 2, 3]);
const failure = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
};

test('a receipt commits once; a replay while reserved is refused, after success it is unknown', () => {
  const book = new ReceiptBook();
  const { id } = book.issue(b, cand, null);
  assert.match(id, /^pr_[A-Za-z0-9_-]{24}$/);
  const r = book.reserve(id, b);
  assert.match(failure(() => book.reserve(id, b)), /^preview_receipt_in_use/);
  r.consume();
  assert.equal(failure(() => book.reserve(id, b)), 'preview_receipt_invalid: Preview receipt is unknown or has already been used');
});

test('bound to its file and session (kept for its owner) and to the configuration (spent)', () => {
  const book = new ReceiptBook();
  const { id } = book.issue(b, cand, null);
  assert.equal(failure(() => book.reserve(id, { ...b, filePath: '/r/b.ts' })), 'preview_receipt_invalid: Preview receipt does not belong to this file');
  assert.equal(failure(() => book.reserve(id, { ...b, sessionId: 's2' })), 'preview_receipt_invalid: Preview receipt belongs to a different MCP session');
  assert.equal(failure(() => book.reserve(id, { ...b, identity: 'id2' })), 'preview_receipt_invalid: Preview receipt is stale because configuration changed');
  assert.match(failure(() => book.reserve(id, b)), /unknown or has already been used/);
  const again = book.issue(b, cand, null).id;
  assert.match(failure(() => book.reserve(again, { ...b, generation: 2 })), /stale because configuration changed/);
});

test('release allows a retry; invalidate does not; expiry after 5 minutes (injected clock)', () => {
  let now = 1000;
  const book = new ReceiptBook({ now: () => now });
  const { id, expiresAt } = book.issue(b, cand, { meta: 1 });
  assert.equal(expiresAt, 1000 + RECEIPT_TTL_MS);
  book.reserve(id, b).release();
  const r = book.reserve(id, b);
  assert.deepEqual(r.record.payload, { meta: 1 });
  r.invalidate();
  assert.match(failure(() => book.reserve(id, b)), /unknown/);
  const id2 = book.issue(b, cand, null).id;
  now += RECEIPT_TTL_MS;
  book.reserve(id2, b).release();
  now += 1;
  assert.equal(failure(() => book.reserve(id2, b)), 'preview_receipt_expired: Preview receipt has expired; preview the patch again');
});

test('limits per session: 4 MiB per candidate, 32 receipts, 16 MiB; other sessions are not counted', () => {
  const book = new ReceiptBook();
  assert.match(failure(() => book.issue(b, new Uint8Array(MAX_CANDIDATE_BYTES + 1), null)), /^preview_receipt_limit/);
  for (let i = 0; i < MAX_SESSION_RECEIPTS; i++) book.issue(b, cand, null);
  assert.match(failure(() => book.issue(b, cand, null)), /^preview_receipt_limit: Preview receipt storage limit exceeded/);
  book.issue({ ...b, sessionId: 's2' }, cand, null);
  const big = new ReceiptBook();
  for (let i = 0; i < MAX_SESSION_BYTES / MAX_CANDIDATE_BYTES; i++) big.issue(b, new Uint8Array(MAX_CANDIDATE_BYTES), null);
  assert.match(failure(() => big.issue(b, cand, null)), /^preview_receipt_limit/);
  assert.match(failure(() => big.checkRoom('s3', [new Uint8Array(1), new Uint8Array(MAX_CANDIDATE_BYTES + 1)])), /per candidate/);
});

test('expired receipts stop counting against the limit', () => {
  let now = 0;
  const book = new ReceiptBook({ now: () => now });
  for (let i = 0; i < MAX_SESSION_RECEIPTS; i++) book.issue(b, cand, null);
  now = RECEIPT_TTL_MS + 1;
  assert.equal(book.count('s1'), 0);
  book.issue(b, cand, null);
});
