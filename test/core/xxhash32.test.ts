import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import xxhashInit from 'xxhash-wasm';
import { Xxh32, xxhash32 } from '../../src/core/xxhash32.js';

const ref = await xxhashInit();

test('known vectors of xxHash32 seed 0', () => {
  const enc = new TextEncoder();
  assert.equal(xxhash32(enc.encode('')), 0x02cc5d05);
  assert.equal(xxhash32(enc.encode('a')), 0x550d7456);
  assert.equal(xxhash32(enc.encode('abc')), 0x32d153ff);
});

test('matches the reference implementation on random input and seeds', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 0, max: 0xffffffff }), (bytes, seed) => {
      assert.equal(xxhash32(bytes, seed), ref.h32Raw(bytes, seed));
    }),
    { numRuns: 2000 },
  );
});

test('streaming in arbitrary chunks equals one-shot', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(40), { maxLength: 20 }), (bytes, cuts) => {
      const h = new Xxh32(0);
      let at = 0;
      for (const c of cuts) {
        h.update(bytes.subarray(at, Math.min(bytes.length, at + c)));
        at = Math.min(bytes.length, at + c);
      }
      h.update(bytes.subarray(at));
      assert.equal(h.digest(), ref.h32Raw(bytes, 0));
    }),
    { numRuns: 1000 },
  );
});
