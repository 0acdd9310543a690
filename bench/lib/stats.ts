// Medians, percentiles and the A B A B alternation every side-by-side pair runs through.

import { performance } from 'node:perf_hooks';

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = (p / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo]! + (s[hi]! - s[lo]!) * (rank - lo);
}

/** Milliseconds taken by `fn`. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Runs `a` then `b`, `reps` times (A B A B ...), so drift in the machine's load hits both sides
 * alike. Each function returns its own figure (a time, a throughput). `warmup` rounds are discarded.
 */
export async function alternate(
  reps: number,
  a: (i: number) => Promise<number>,
  b: (i: number) => Promise<number>,
  warmup = 0,
): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < warmup + reps; i++) {
    const x = await a(i);
    const y = await b(i);
    if (i >= warmup) {
      out.a.push(x);
      out.b.push(y);
    }
  }
  return out;
}

/**
 * As `alternate`, with a third function, the floor, run after each pair (A B F A B F ...), so the
 * floor meets the same drift of the machine's load as the pair it stands beside.
 */
export async function alternateWithFloor(
  reps: number,
  a: (i: number) => Promise<number>,
  b: (i: number) => Promise<number>,
  f: (i: number) => Promise<number>,
  warmup = 0,
): Promise<{ a: number[]; b: number[]; f: number[] }> {
  const out = { a: [] as number[], b: [] as number[], f: [] as number[] };
  for (let i = 0; i < warmup + reps; i++) {
    const x = await a(i);
    const y = await b(i);
    const z = await f(i);
    if (i >= warmup) {
      out.a.push(x);
      out.b.push(y);
      out.f.push(z);
    }
  }
  return out;
}
