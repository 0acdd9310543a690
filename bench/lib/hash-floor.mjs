// The ceiling of hashing whole files here: SHA-256 of every file named, one file per core at a time,
// each read whole (fs.promises.readFile) and hashed by WebCrypto's digest (node:crypto's SHA-256 on
// the thread pool, so the cores hash side by side), with no checks, no protocol and no reply.
// Use: `const h = await startHashFloor(); await h.passMs(files); await h.close()`; or run alone:
//   node bench/lib/hash-floor.mjs FILE...

import { webcrypto } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export async function startHashFloor(lanes = os.availableParallelism()) {
  return {
    /** Wall ms of hashing all `files`, `lanes` at a time. */
    async passMs(files) {
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(lanes, files.length) }, async () => {
          while (next < files.length) await webcrypto.subtle.digest('SHA-256', await readFile(files[next++]));
        }),
      );
      return performance.now() - start;
    },
    close: async () => undefined,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  const h = await startHashFloor();
  for (let i = 0; i < 3; i++) console.log(`${files.length} files: ${(await h.passMs(files)).toFixed(1)} ms`);
}
