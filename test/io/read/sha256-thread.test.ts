// SHA-256 on its own thread over the shared arena (io/read/sha256-thread.ts) and the chunked read
// that feeds it (io/read/hashed-chunks.ts): digests equal node:crypto's for jobs fed in pieces and
// side by side, a read past the arena's free buffers hashes on the calling thread and still agrees,
// a cancelled or finished read gives its buffers back, and a thread stopped under a job fails that
// job with a code (never a digest of other bytes). The reads are handed the thread whatever the
// machine's load (by default they use it only while a core is to spare).

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { HashedChunks, THREAD_HASH_MIN_BYTES } from '../../../src/io/read/hashed-chunks.js';
import { SHARED_BYTES, sha256Thread, Sha256Job, sharedFree, takeShared, giveShared } from '../../../src/io/read/sha256-thread.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

test('jobs fed in pieces, side by side, give the digests of their bytes', async () => {
  const t = sha256Thread();
  assert.ok(t, 'the thread starts');
  const a = takeShared()!;
  const b = takeShared()!;
  try {
    const bytesA = randomBytes(3 * 1000 + 7);
    const bytesB = Buffer.from('second job\r\n'.repeat(500));
    const ja = new Sha256Job(t);
    const jb = new Sha256Job(t);
    for (let i = 0; i < 3; i++) {
      // the same buffer refilled once the thread said it was done with it
      bytesA.copy(a, 0, i * 1000, (i + 1) * 1000);
      bytesB.copy(b, 0, i * 2000, (i + 1) * 2000);
      await Promise.all([ja.update(a.subarray(0, 1000)), jb.update(b.subarray(0, 2000))]);
    }
    bytesA.copy(a, 0, 3000);
    assert.equal(await ja.end(a.subarray(0, 7)), sha(bytesA));
    assert.equal(await jb.end(), sha(bytesB.subarray(0, 6000)));
    assert.equal(await new Sha256Job(t).end(a.subarray(0, 0)), sha(Buffer.alloc(0)), 'nothing fed');
  } finally {
    giveShared(a);
    giveShared(b);
  }
});

test('a chunked read hashes every byte once, on the thread or (past the free buffers) here, and gives its buffers back', async () => {
  const sb = await makeSandbox({});
  try {
    const sizes = [0, 5, THREAD_HASH_MIN_BYTES - 1, THREAD_HASH_MIN_BYTES, SHARED_BYTES - 1, SHARED_BYTES, 5 * SHARED_BYTES + 123];
    const free = sharedFree();
    for (const exhaust of [false, true]) {
      // with every buffer taken the read hashes on the calling thread
      const held: Buffer[] = [];
      for (let b = exhaust ? takeShared() : undefined; b !== undefined; b = takeShared()) held.push(b);
      for (const size of sizes) {
        const bytes = randomBytes(size);
        const file = path.join(sb.root, `f${size}`);
        const fh = await open(file, 'w+');
        try {
          await fh.writeFile(bytes);
          const chunks = new HashedChunks(fh, Math.min(1024 * 1024, Math.max(size + 1, 4096)), size, size >= THREAD_HASH_MIN_BYTES ? sha256Thread() : undefined);
          const seen: Buffer[] = [];
          for (let c = await chunks.next(); c !== null; c = await chunks.next()) seen.push(Buffer.from(c));
          assert.equal(await chunks.digest(), sha(bytes), `size ${size}${exhaust ? ', arena taken' : ''}`);
          assert.ok(Buffer.concat(seen).equals(bytes), `the chunks are the file (${size})`);
          assert.equal(chunks.bytesRead, size);
        } finally {
          await fh.close();
        }
      }
      for (const b of held) giveShared(b);
      assert.equal(sharedFree(), free, 'every buffer back');
    }
  } finally {
    await sb.cleanup();
  }
});

test('a cancelled chunked read stops with the code aborted and its buffers come back', async () => {
  const sb = await makeSandbox({ 'big.bin': randomBytes(6 * SHARED_BYTES) });
  try {
    const free = sharedFree();
    const fh = await open(path.join(sb.root, 'big.bin'));
    const ac = new AbortController();
    try {
      const chunks = new HashedChunks(fh, 1024 * 1024, 6 * SHARED_BYTES, sha256Thread());
      await chunks.next(ac.signal);
      await chunks.next(ac.signal);
      assert.ok(sharedFree() < free, 'the read holds buffers');
      ac.abort();
      await assert.rejects(chunks.next(ac.signal), (e: { code?: string }) => e.code === 'aborted');
      chunks.dispose();
    } finally {
      await fh.close();
    }
    for (let i = 0; i < 100 && sharedFree() < free; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(sharedFree(), free);
  } finally {
    await sb.cleanup();
  }
});

test('a thread stopped while a job waits fails the job with io_error; the next job starts a new thread', async () => {
  const t = sha256Thread()!;
  const buf = takeShared()!;
  try {
    buf.fill(7, 0, 1000);
    const job = new Sha256Job(t);
    const waiting = job.end(buf.subarray(0, 1000));
    t.stop();
    await assert.rejects(waiting, (e: { code?: string }) => e.code === 'io_error');
    assert.equal(await new Sha256Job(sha256Thread()!).end(buf.subarray(0, 1000)), sha(Buffer.alloc(1000, 7)));
  } finally {
    giveShared(buf);
  }
});
