// 10^6 fast-check cases per target over the DSL parser, the range rule and the guard's lexical
// half: 0 crashes (only HashlineError may be thrown) and 0 hangs (no case over the time bound; a
// worker silent for too long is cut off and counted as a hang).

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { REPO } from '../lib/hashline.js';
import type { StressPlan } from '../lib/scale.js';
import { FUZZ_TARGETS, missingModules } from './fuzz-targets.js';

export interface FuzzFigures {
  target: string;
  notBuilt?: string;
  cases: number;
  crashes: number;
  refusals: number;
  hangs: number;
  maxCaseMs: number;
  /** The input of the slowest case (JSON, cut at 300 characters). */
  slowest: string;
  seconds: number;
  seed: number;
  samples: string[];
}

function runWorker(target: string, plan: StressPlan, seed: number): Promise<Omit<FuzzFigures, 'target' | 'seconds' | 'seed'>> {
  return new Promise((resolve, reject) => {
    // Node 20 ignores `--import` for a worker's entry: register tsx from a small bootstrap instead.
    const api = pathToFileURL(path.join(REPO, 'node_modules/tsx/dist/esm/api/index.mjs')).href;
    const entry = new URL('./fuzz-worker.ts', import.meta.url).href;
    const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`;
    const w = new Worker(boot, {
      eval: true,
      workerData: { target, cases: plan.fuzzCases, seed, caseLimitMs: plan.fuzzCaseLimitMs },
    });
    let done = 0;
    let last = Date.now();
    const silentLimit = Math.max(30_000, plan.fuzzCaseLimitMs * 10);
    const watchdog = setInterval(() => {
      if (Date.now() - last > silentLimit) {
        clearInterval(watchdog);
        void w.terminate();
        resolve({ cases: done, crashes: 0, refusals: 0, hangs: 1, maxCaseMs: Date.now() - last, slowest: '', samples: [`silent for ${silentLimit} ms after ${done} cases`] });
      }
    }, 1000);
    w.on('message', (m: { kind: string; done: number; crashes: number; refusals: number; slow: number; maxMs: number; slowest: string; samples: string[] }) => {
      last = Date.now();
      done = m.done;
      if (m.kind === 'done') {
        clearInterval(watchdog);
        void w.terminate();
        resolve({ cases: m.done, crashes: m.crashes, refusals: m.refusals, hangs: m.slow, maxCaseMs: m.maxMs, slowest: m.slowest, samples: m.samples });
      }
    });
    w.on('error', (e) => {
      clearInterval(watchdog);
      reject(e);
    });
  });
}

export async function fuzz(plan: StressPlan): Promise<FuzzFigures[]> {
  const out: FuzzFigures[] = [];
  for (const t of FUZZ_TARGETS) {
    const seed = Number(process.env.STRESS_SEED ?? Date.now() % 2 ** 31);
    const missing = missingModules(t);
    if (missing.length) {
      out.push({ target: t.name, notBuilt: `${missing.join(', ')} not built yet`, cases: 0, crashes: 0, refusals: 0, hangs: 0, maxCaseMs: 0, slowest: '', seconds: 0, seed, samples: [] });
      continue;
    }
    const t0 = Date.now();
    const r = await runWorker(t.name, plan, seed);
    out.push({ target: t.name, ...r, seconds: (Date.now() - t0) / 1000, seed });
  }
  return out;
}
