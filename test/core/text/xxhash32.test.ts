import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import xxhashInit from 'xxhash-wasm';
import { Xxh32, xxhash32 } from '../../../src/core/text/xxhash32.js';

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

test('aligned (word reads) and unaligned starts of one buffer agree with the reference', () => {
  const big = new Uint8Array(4096 + 8);
  for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
  for (let offset = 0; offset < 8; offset++) {
    for (const n of [0, 15, 16, 17, 31, 32, 33, 1000, 4096]) {
      const view = big.subarray(offset, offset + n);
      assert.equal(xxhash32(view), ref.h32Raw(view, 0), `offset ${offset}, ${n} bytes`);
      assert.equal(new Xxh32(7).update(view.subarray(0, 5)).update(view.subarray(5)).digest(), ref.h32Raw(view, 7));
    }
  }
});
