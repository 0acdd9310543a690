// xxHash32 (Yann Collet's algorithm) over bytes, one-shot and streaming. Pure computation.

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

function rotl(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

function round(acc: number, lane: number): number {
  acc = (acc + Math.imul(lane, P2)) >>> 0;
  acc = rotl(acc, 13);
  return Math.imul(acc, P1) >>> 0;
}

function readU32(b: Uint8Array, i: number): number {
  return (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;
}

/** Streaming xxHash32: `update` any number of times, then `digest` once. */
export class Xxh32 {
  private v1: number;
  private v2: number;
  private v3: number;
  private v4: number;
  private readonly seed: number;
  private total = 0;
  private readonly mem = new Uint8Array(16);
  private memSize = 0;

  constructor(seed = 0) {
    this.seed = seed >>> 0;
    this.v1 = (this.seed + P1 + P2) >>> 0;
    this.v2 = (this.seed + P2) >>> 0;
    this.v3 = this.seed;
    this.v4 = (this.seed - P1) >>> 0;
  }

  update(bytes: Uint8Array): this {
    const len = bytes.length;
    this.total += len;
    let i = 0;
    if (this.memSize + len < 16) {
      this.mem.set(bytes, this.memSize);
      this.memSize += len;
      return this;
    }
    if (this.memSize > 0) {
      const fill = 16 - this.memSize;
      this.mem.set(bytes.subarray(0, fill), this.memSize);
      this.stripe(this.mem, 0);
      i = fill;
      this.memSize = 0;
    }
    const limit = len - 16;
    if (i <= limit) i = this.stripes(bytes, i, limit);
    if (i < len) {
      this.mem.set(bytes.subarray(i), 0);
      this.memSize = len - i;
    }
    return this;
  }

  /**
   * The stripes from `i` while `i <= limit`; returns where it stopped. The hot loop: lanes in
   * locals, int32 arithmetic throughout (Math.imul and shifts), one unsigned store at the end.
   */
  private stripes(b: Uint8Array, start: number, limit: number): number {
    let v1 = this.v1 | 0;
    let v2 = this.v2 | 0;
    let v3 = this.v3 | 0;
    let v4 = this.v4 | 0;
    let i = start;
    if (LITTLE_ENDIAN && ((b.byteOffset + i) & 3) === 0) {
      // aligned: read the lanes as 32-bit words
      const count = ((limit - i) >>> 4) + 1;
      const w = new Int32Array(b.buffer, b.byteOffset + i, count * 4);
      for (let j = 0; j < w.length; j += 4) {
        // the rotation written out (a call per lane costs the most before the JIT compiles the loop)
        v1 = (v1 + Math.imul(w[j]!, P2)) | 0;
        v1 = Math.imul((v1 << 13) | (v1 >>> 19), P1);
        v2 = (v2 + Math.imul(w[j + 1]!, P2)) | 0;
        v2 = Math.imul((v2 << 13) | (v2 >>> 19), P1);
        v3 = (v3 + Math.imul(w[j + 2]!, P2)) | 0;
        v3 = Math.imul((v3 << 13) | (v3 >>> 19), P1);
        v4 = (v4 + Math.imul(w[j + 3]!, P2)) | 0;
        v4 = Math.imul((v4 << 13) | (v4 >>> 19), P1);
      }
      i += count * 16;
    }
    for (; i <= limit; i += 16) {
      v1 = (v1 + Math.imul(b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24), P2)) | 0;
      v1 = Math.imul((v1 << 13) | (v1 >>> 19), P1);
      v2 = (v2 + Math.imul(b[i + 4]! | (b[i + 5]! << 8) | (b[i + 6]! << 16) | (b[i + 7]! << 24), P2)) | 0;
      v2 = Math.imul((v2 << 13) | (v2 >>> 19), P1);
      v3 = (v3 + Math.imul(b[i + 8]! | (b[i + 9]! << 8) | (b[i + 10]! << 16) | (b[i + 11]! << 24), P2)) | 0;
      v3 = Math.imul((v3 << 13) | (v3 >>> 19), P1);
      v4 = (v4 + Math.imul(b[i + 12]! | (b[i + 13]! << 8) | (b[i + 14]! << 16) | (b[i + 15]! << 24), P2)) | 0;
      v4 = Math.imul((v4 << 13) | (v4 >>> 19), P1);
    }
    this.v1 = v1 >>> 0;
    this.v2 = v2 >>> 0;
    this.v3 = v3 >>> 0;
    this.v4 = v4 >>> 0;
    return i;
  }

  private stripe(b: Uint8Array, i: number): void {
    this.v1 = round(this.v1, readU32(b, i));
    this.v2 = round(this.v2, readU32(b, i + 4));
    this.v3 = round(this.v3, readU32(b, i + 8));
    this.v4 = round(this.v4, readU32(b, i + 12));
  }

  digest(): number {
    let h: number;
    if (this.total >= 16) {
      h = (rotl(this.v1, 1) + rotl(this.v2, 7) + rotl(this.v3, 12) + rotl(this.v4, 18)) >>> 0;
    } else {
      h = (this.seed + P5) >>> 0;
    }
    h = (h + this.total) >>> 0;
    const b = this.mem;
    const len = this.memSize;
    let i = 0;
    while (i + 4 <= len) {
      h = (h + Math.imul(readU32(b, i), P3)) >>> 0;
      h = Math.imul(rotl(h, 17), P4) >>> 0;
      i += 4;
    }
    while (i < len) {
      h = (h + Math.imul(b[i]!, P5)) >>> 0;
      h = Math.imul(rotl(h, 11), P1) >>> 0;
      i++;
    }
    h ^= h >>> 15;
    h = Math.imul(h, P2) >>> 0;
    h ^= h >>> 13;
    h = Math.imul(h, P3) >>> 0;
    h ^= h >>> 16;
    return h >>> 0;
  }
}

/** The 32-bit xxHash of `bytes` with `seed` (unsigned). */
export function xxhash32(bytes: Uint8Array, seed = 0): number {
  return new Xxh32(seed).update(bytes).digest();
}
