import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_LIMITS, recordableText, SnapshotStore, utf8Length } from '../../src/core/history/snapshot-store.js';
import { MAX_PATHS, MAX_SNAPSHOT_BYTES, MAX_VERSIONS_PER_PATH } from '../../src/core/history/limits.js';
import { computeTag } from '../../src/core/text/tag.js';

test('limits are the spec values', () => {
  assert.equal(MAX_PATHS, 50);
  assert.equal(MAX_VERSIONS_PER_PATH, 10);
  assert.equal(MAX_SNAPSHOT_BYTES, 512 * 1024);
});

test('record is idempotent, returns the tag, and drops the oldest version past the limit', () => {
  const s = new SnapshotStore();
  assert.equal(s.record('/a', 'x\n'), computeTag('x\n'));
  s.record('/a', 'x\n');
  assert.equal(s.versions('/a').length, 1);
  for (let i = 0; i < 12; i++) s.record('/a', `v${i}\n`);
  assert.equal(s.versions('/a').length, 10);
  assert.equal(s.versions('/a')[0]!.text, 'v2\n');
  assert.equal(s.head('/a')!.text, 'v11\n');
});

test('paths are evicted least recently used first', () => {
  const s = new SnapshotStore();
  for (let i = 0; i < 50; i++) s.record(`/p${i}`, 'x');
  s.record('/p0', 'x'); // touch p0
  s.record('/p50', 'x');
  assert.equal(s.versions('/p0').length, 1);
  assert.equal(s.versions('/p1').length, 0);
});

test('too large or NUL-holding text is not recorded; empty text is a version', () => {
  const s = new SnapshotStore();
  assert.equal(s.record('/a', 'x'.repeat(512 * 1024 + 1)), null);
  assert.equal(s.record('/a', 'a\0b'), null);
  assert.equal(s.record('/a', ''), computeTag(''));
});

test('versions are keyed by text: two texts with one tag are two versions', () => {
  // brute-force a collision pair
  const seen = new Map<string, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const t = `line ${i}\n`;
    const tag = computeTag(t);
    const prev = seen.get(tag);
    if (prev) pair = [prev, t];
    else seen.set(tag, t);
  }
  const s = new SnapshotStore();
  s.record('/c', pair[0]);
  s.record('/c', pair[1]);
  const cands = s.withTag('/c', computeTag(pair[0]));
  assert.equal(cands.length, 2);
  assert.equal(cands[0]!.text, pair[1], 'newest first');
});

test('reanchor and rename', () => {
  const s = new SnapshotStore();
  s.record('/a', '1');
  s.record('/a', '2');
  s.reanchor('/a', '1');
  assert.equal(s.head('/a')!.text, '1');
  s.rename('/a', '/b');
  assert.equal(s.versions('/a').length, 0);
  assert.equal(s.versions('/b').length, 2);
});

test('utf8Length is the UTF-8 size of any string (pairs four bytes, a lone surrogate written as U+FFFD)', () => {
  assert.equal(utf8Length('a\u00e9\u20ac\u{1f600}'), 1 + 2 + 3 + 4);
  assert.equal(utf8Length('\ud83d'), 3);
  assert.equal(utf8Length('\ude00x'), 4);
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.constantFrom('\ud83d', '\ude00', 'a', '\u00e9'), fc.string({ unit: 'binary', maxLength: 2 }))).map((parts) => parts.join('')), (s) => {
      assert.equal(utf8Length(s), Buffer.byteLength(s, 'utf8'));
    }),
  );
});

test('recordableText counts a text of emoji exactly at the size limit', () => {
  const limits = { ...DEFAULT_LIMITS, maxSnapshotBytes: 400 };
  assert.equal(recordableText('\u{1f600}'.repeat(100), limits), true); // 400 bytes
  assert.equal(recordableText('\u{1f600}'.repeat(101), limits), false);
});
