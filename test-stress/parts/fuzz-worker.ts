// Runs one fuzz target in a worker thread, so a hang can be cut off from outside: posts progress
// every few thousand cases and a final tally (crashes, slowest case).

import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { isHashlineError } from '../../src/core/errors/errors.js';
import { FUZZ_TARGETS } from './fuzz-targets.js';

interface Job {
  target: string;
  cases: number;
  seed: number;
  caseLimitMs: number;
}

const job = workerData as Job;
const target = FUZZ_TARGETS.find((t) => t.name === job.target)!;
const { arb, run } = await target.load();
let done = 0;
let crashes = 0;
let refusals = 0;
let slow = 0;
let maxMs = 0;
let slowest = '';
const samples: string[] = [];
fc.check(
  fc.property(arb, (input) => {
    const t0 = performance.now();
    try {
      run(input);
    } catch (e) {
      if (isHashlineError(e)) refusals++;
      else {
        crashes++;
        if (samples.length < 3) samples.push(`${(e as Error)?.message ?? e} <- ${JSON.stringify(input, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)).slice(0, 300)}`);
      }
    }
    const ms = performance.now() - t0;
    if (ms > maxMs) {
      maxMs = ms;
      slowest = JSON.stringify(input, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)).slice(0, 300);
    }
    if (ms > job.caseLimitMs) slow++;
    if (++done % 5000 === 0) parentPort!.postMessage({ kind: 'progress', done });
    return true;
  }),
  { numRuns: job.cases, seed: job.seed },
);
parentPort!.postMessage({ kind: 'done', done, crashes, refusals, slow, maxMs, slowest, samples });
