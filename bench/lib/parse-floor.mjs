// The floor under any rewrite that parses with ast-grep's napi module: ms to parse every file of a
// tree and find a pattern's matches (with the range of each match and of one capture), on one
// worker thread per core, the texts already in memory: nothing read from disk, rendered or written.
// Each worker gives the event loop a turn every 50 files so the parsed trees are freed as they
// would be in a server (napi finalizers run there).
// Use: `await parseFloorMs(files, pattern, capture)`; run alone it prints one figure for a tree:
//   node bench/lib/parse-floor.mjs DIR 'console.log($A)' A

import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

if (!isMainThread && parentPort) {
  const port = parentPort;
  const { createRequire } = await import('node:module');
  const napi = createRequire(import.meta.url)('@ast-grep/napi');
  port.on('message', async ({ texts, pattern, capture }) => {
    const start = performance.now();
    let found = 0;
    for (let i = 0; i < texts.length; i++) {
      for (const m of napi.parse('TypeScript', texts[i]).root().findAll(pattern)) {
        m.range();
        m.getMatch(capture)?.range();
        found++;
      }
      if (i % 50 === 49) await new Promise((r) => setImmediate(r));
    }
    port.postMessage({ ms: performance.now() - start, found });
  });
}

/** Wall ms for `threads` workers (one per core by default) to parse and match all `texts`; also the matches found. */
export async function parseFloorMs(texts, pattern, capture, threads = os.availableParallelism()) {
  const workers = Array.from({ length: threads }, () => new Worker(fileURLToPath(import.meta.url)));
  try {
    // warm each worker (module load, grammar) on one text first
    await Promise.all(workers.map((w) => run(w, texts.slice(0, 1), pattern, capture)));
    const start = performance.now();
    const parts = await Promise.all(workers.map((w, k) => run(w, texts.filter((_, i) => i % threads === k), pattern, capture)));
    return { ms: performance.now() - start, found: parts.reduce((a, p) => a + p.found, 0) };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function run(worker, texts, pattern, capture) {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage({ texts, pattern, capture });
  });
}

/** Every file's text under `dir`, in sorted order (dot files skipped). */
export function treeTexts(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

if (isMainThread && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, pattern = 'console.log($A)', capture = 'A'] = process.argv.slice(2);
  const texts = treeTexts(dir);
  for (let i = 0; i < 3; i++) {
    const r = await parseFloorMs(texts, pattern, capture);
    console.log(`${texts.length} files: ${r.ms.toFixed(0)} ms, ${r.found} matches`);
  }
}
