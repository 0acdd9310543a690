// `npx tsx bench/locks/lock-cost.ts [OLD_MODULE]`: what taking and releasing file locks costs. For
// each file system at hand (the system temp dir, and /dev/shm where there is one), 2,000 files two
// levels under a root: locked one call each (withLocks of one path, in turn), and all at once (one
// withLocks of 2,000 paths, the shape of a large fs_ast_edit chunk set). Prints the median of 5 runs.
// OLD_MODULE: a file-lock.ts of the earlier design (lock files in a private folder: constructor
// takes that folder) to print beside it, e.g. from another checkout.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LockManager } from '../../src/io/locks/file-lock.js';

interface Locks {
  withLocks<T>(reals: readonly string[], fn: () => Promise<T>): Promise<T>;
}

const N = 2000;
const RUNS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(make: (root: string) => Locks, base: string): Promise<{ oneByOne: number; batch: number }> {
  const root = mkdtempSync(path.join(base, 'hl-lock-bench-'));
  try {
    const files: string[] = [];
    for (let d = 0; d < 20; d++) {
      mkdirSync(path.join(root, 'src', `d${d}`), { recursive: true });
      for (let f = 0; f < N / 20; f++) files.push(path.join(root, 'src', `d${d}`, `f${f}.ts`));
    }
    const locks = make(root);
    const one: number[] = [];
    const all: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      let t = performance.now();
      for (const f of files) await locks.withLocks([f], async () => undefined);
      one.push(performance.now() - t);
      t = performance.now();
      await locks.withLocks(files, async () => undefined);
      all.push(performance.now() - t);
    }
    return { oneByOne: median(one), batch: median(all) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const bases = [os.tmpdir(), ...(existsSync('/dev/shm') ? ['/dev/shm'] : [])];
const oldModule = process.argv[2];
for (const base of bases) {
  const now = await measure((root) => new LockManager({ root }), base);
  console.log(`${base}: ${N} locks, beside each file: one by one ${now.oneByOne.toFixed(0)} ms, in one batch ${now.batch.toFixed(0)} ms`);
  if (oldModule) {
    const Old = (await import(path.resolve(oldModule))).LockManager as new (dir: string) => Locks;
    const then = await measure((root) => new Old(path.join(root, '.old-locks')), base);
    console.log(`${base}: ${N} locks, private folder (${oldModule}): one by one ${then.oneByOne.toFixed(0)} ms, in one batch ${then.batch.toFixed(0)} ms`);
  }
}
