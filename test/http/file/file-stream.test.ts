// The streamed window of GET /v1/fs/file: the slicer stops reading once the window closes, and the
// file handle is closed on every path, a client that goes away mid-stream included.

import assert from 'node:assert/strict';
import { promises as fsp, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { LineSlicer } from '../../../src/core/read/line-window.js';
import { WindowStream } from '../../../src/http/file/file-read.js';
import { type Daemon, q, startDaemon } from '../harness.js';

/** Descriptors of this process open on `file`. */
const fdsOn = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
const LINE = `${'x'.repeat(99)}\n`;

let d: Daemon;
let big: string;
before(async () => {
  d = await startDaemon();
  big = path.join(d.sandbox.root, 'big.txt');
  await fsp.writeFile(big, LINE.repeat(100_000)); // 10 MB
});
after(() => d.close());

async function drain(s: WindowStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

test('a window at the start reads one chunk, not the file', async () => {
  const handle = await fsp.open(big);
  let reads = 0;
  const read = handle.read.bind(handle);
  (handle as unknown as { read: typeof read }).read = ((...args: Parameters<typeof read>) => {
    reads++;
    return read(...args);
  }) as typeof read;
  const out = await drain(new WindowStream(handle, new LineSlicer({ start: 2, end: 3 })));
  assert.equal(out.toString(), LINE + LINE);
  assert.equal(reads, 1);
});

test('a window at the end is exact and the handle is closed', async () => {
  const handle = await fsp.open(big);
  const out = await drain(new WindowStream(handle, new LineSlicer({ start: 99_999, end: undefined })));
  assert.equal(out.toString(), LINE + LINE);
  assert.equal(fdsOn(big), 0);
});

test('a client that goes away mid-stream: the handle is closed', async () => {
  const ac = new AbortController();
  const r = await d.call(`/v1/fs/file?${q({ path: 'big.txt' })}`, { signal: ac.signal });
  const reader = r.body!.getReader();
  await reader.read();
  assert.equal(fdsOn(big), 1, 'the daemon holds the file while streaming');
  ac.abort();
  await reader.cancel().catch(() => undefined);
  for (let i = 0; i < 100 && fdsOn(big) > 0; i++) await new Promise((res) => setTimeout(res, 20));
  assert.equal(fdsOn(big), 0);
});
