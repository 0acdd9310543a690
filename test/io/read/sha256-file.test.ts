// The streamed SHA-256 reads a file to its end whatever the size hint that sized its buffers (a
// file that grew since its fstat, one larger than a buffer, an empty one).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sha256OfHandle } from '../../../src/io/read/sha256-file.js';

test('the hash is of every byte, with a hint too small, too large or none', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-sha-'));
  try {
    for (const bytes of [Buffer.alloc(0), Buffer.from('short\n'), Buffer.alloc(5 * 1024 * 1024 + 7, 'y')]) {
      const file = path.join(dir, `f${bytes.length}`);
      await fsp.writeFile(file, bytes);
      const want = { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
      for (const hint of [0, 10, bytes.length, undefined]) {
        const h = await fsp.open(file, 'r');
        try {
          assert.deepEqual(await sha256OfHandle(h, undefined, hint), want, `${bytes.length} bytes, hint ${hint}`);
        } finally {
          await h.close();
        }
      }
    }
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
