// The ceiling of hashing whole files here: SHA-256 of every file named, on one worker thread per
// core (each reads its files whole and hashes them with node:crypto), with no checks, no protocol
// and no reply. Workers are started once and reused; the figure is the wall time of one pass.
// Use: `const h = await startHashFloor(); await h.passMs(files); await h.close()`; or run alone:
//   node bench/lib/hash-floor.mjs FILE...

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (!isMainThread && parentPort) {
  const port = parentPort;
  port.on('message', (files) => {
    for (const f of files) createHash('sha256').update(readFileSync(f)).digest('hex');
    port.postMessage(files.length);
  });
}

function run(worker, files) {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(files);
  });
}

export async function startHashFloor(threads = os.availableParallelism()) {
  const workers = Array.from({ length: threads }, () => new Worker(fileURLToPath(import.meta.url)));
  return {
    /** Wall ms of hashing all `files`, dealt out to the workers in turn. */
    async passMs(files) {
      const start = performance.now();
      await Promise.all(workers.map((w, k) => run(w, files.filter((_, i) => i % threads === k))));
      return performance.now() - start;
    },
    close: () => Promise.all(workers.map((w) => w.terminate())),
  };
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  const h = await startHashFloor();
  for (let i = 0; i < 3; i++) console.log(`${files.length} files: ${(await h.passMs(files)).toFixed(1)} ms`);
  await h.close();
}
