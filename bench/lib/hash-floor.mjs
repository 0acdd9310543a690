// The ceiling of hashing whole files here: SHA-256 of every file named, read whole
// (fs.promises.readFile) and hashed with node:crypto on the calling thread, one after the other, with
// no checks, no protocol and no reply. One thread: this machine's two cores share one SHA unit (two
// threads hashing at once each go at half speed), so more threads add nothing.
// Use: `const h = await startHashFloor(); await h.passMs(files); await h.close()`; or run alone:
//   node bench/lib/hash-floor.mjs FILE...

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function startHashFloor() {
  return {
    /** Wall ms of hashing all `files`. */
    async passMs(files) {
      const start = performance.now();
      for (const f of files) createHash('sha256').update(await readFile(f)).digest('hex');
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
