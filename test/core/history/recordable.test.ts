// What the history can keep as a version: no NUL, within the size limit; for a text given by its
// UTF-8 bytes (recordableBytes), the same answer as for the text, on a view into a larger buffer too
// (only the view's own bytes count).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS, recordableBytes, recordableText } from '../../../src/core/history/snapshot-store.js';

test('recordableBytes answers as recordableText for the text the bytes encode', () => {
  const limits = { ...DEFAULT_LIMITS, maxSnapshotBytes: 64 };
  for (const text of ['', 'a\n', 'Ω\n', 'a\0b', '\0', 'x'.repeat(64), 'x'.repeat(65), `${'y'.repeat(63)}\0`]) {
    assert.equal(recordableBytes(new TextEncoder().encode(text), limits), recordableText(text, limits), JSON.stringify(text));
  }
});

test('recordableBytes looks only at the bytes of its view', () => {
  const whole = new Uint8Array([0, 0x61, 0x62, 0x0a, 0]);
  assert.equal(recordableBytes(whole.subarray(1, 4), DEFAULT_LIMITS), true);
  assert.equal(recordableBytes(whole.subarray(1, 5), DEFAULT_LIMITS), false);
  assert.equal(recordableBytes(whole.subarray(0, 2), DEFAULT_LIMITS), false);
});
