// The ceiling of hashing whole files here: SHA-256 of every file named, read with plain synchronous
// reads into one reused 2 MiB buffer and hashed with node:crypto on the calling thread, one file after
// the other, with no checks, no protocol and no reply. One thread: this machine's two cores share one
// SHA unit (bench/sha/threads.mjs: two threads hashing at once each go at half speed).
// Use: `const h = await startHashFloor(); await h.passMs(files); await h.close()`; `hashFileSync(file)`
// for one file; or run alone: node bench/lib/hash-floor.mjs FILE...

import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const buffer = Buffer.allocUnsafe(2 * 1024 * 1024);

/** SHA-256 (hex) of a file, streamed through one reused buffer. */
export function hashFileSync(file) {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null)) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

export async function startHashFloor() {
  return {
    /** Wall ms of hashing all `files`. */
    async passMs(files) {
      const start = performance.now();
      for (const f of files) hashFileSync(f);
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
