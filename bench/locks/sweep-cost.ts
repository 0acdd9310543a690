// `npx tsx bench/locks/sweep-cost.ts DIR`: what the lock sweep at start (io/locks/lock-sweep.ts) costs on
// the tree under DIR: directories visited and wall time, median of 3 runs (nothing is removed
// unless a dead process left lock files there).

import { promises as fsp } from 'node:fs';
import { StaleLocks } from '../../src/io/locks/lock-file.js';
import { MAX_SWEEP_DIRS, sweepStaleLocks } from '../../src/io/locks/lock-sweep.js';

const dir = await fsp.realpath(process.argv[2] ?? '.');
let dirs = 0;
const stack = [dir];
while (stack.length > 0 && dirs < MAX_SWEEP_DIRS) {
  const d = stack.pop()!;
  dirs++;
  for (const e of await fsp.readdir(d, { withFileTypes: true }).catch(() => [])) {
    if (e.isDirectory() && e.name !== '.git' && e.name !== 'node_modules') stack.push(`${d}/${e.name}`);
  }
}
const times: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await sweepStaleLocks(dir, new StaleLocks());
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
console.log(`${dir}: ${dirs} directories swept (cap ${MAX_SWEEP_DIRS}) in ${times[1]!.toFixed(0)} ms (median of 3)`);
