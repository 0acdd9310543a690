// Does hashing on two threads go faster here? SHA-256 of 100 MiB (25 × 4 MiB in memory) on one
// worker thread, then on two worker threads at once (each its own 100 MiB), then on the main
// thread. On a machine whose two cores share one SHA unit, the two at once each take about twice as
// long as one alone. Run: node bench/sha/threads.mjs

import { Worker } from 'node:worker_threads';

const body = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const b = Buffer.alloc(4 << 20, 1);
parentPort.on('message', () => {
  const t = performance.now();
  for (let i = 0; i < 25; i++) createHash('sha256').update(b).digest();
  parentPort.postMessage(performance.now() - t);
});`;
const workers = [new Worker(body, { eval: true }), new Worker(body, { eval: true })];
const run = (w) => new Promise((resolve) => { w.once('message', resolve); w.postMessage(0); });
for (let round = 0; round < 3; round++) {
  const one = await run(workers[0]);
  const both = await Promise.all(workers.map(run));
  console.log(`100 MiB: one thread alone ${one.toFixed(0)} ms; two at once ${both.map((x) => x.toFixed(0)).join(' and ')} ms each`);
}
const { createHash } = await import('node:crypto');
const b = Buffer.alloc(4 << 20, 1);
const t = performance.now();
for (let i = 0; i < 25; i++) createHash('sha256').update(b).digest();
console.log(`100 MiB on the main thread: ${(performance.now() - t).toFixed(0)} ms`);
await Promise.all(workers.map((w) => w.terminate()));
