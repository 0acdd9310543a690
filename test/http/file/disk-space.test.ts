// ReserveWatch.arriving (a member of known size read into memory at once): it counts the bytes and
// checks free space before they land once they cross the recheck mark, as `through` does for one
// chunk of that size. Real statfs of a temporary directory.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { availableBytes, DISK_RECHECK_BYTES, ReserveWatch } from '../../../src/http/file/disk-space.js';
import { isHashlineError } from '../../../src/core/errors/errors.js';

test('arriving: no check below the recheck mark; a check (against what is still to come) once crossed', async () => {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'hl-reserve-'));
  try {
    // more still to come than the disk has: any check refuses
    const expected = (await availableBytes(dir)) * 2 + 10 * DISK_RECHECK_BYTES;
    const watch = new ReserveWatch(dir, 'd', 0, expected);
    await watch.arriving(DISK_RECHECK_BYTES / 2);
    await watch.arriving(DISK_RECHECK_BYTES / 2 - 1);
    assert.equal(watch.remaining, expected - (DISK_RECHECK_BYTES - 1), 'counted, unchecked');
    await assert.rejects(watch.arriving(1), (e: unknown) => isHashlineError(e) && e.code === 'insufficient_storage');
    // the same through `through`, one chunk of the same size
    const streamed = new ReserveWatch(dir, 'd', 0, expected);
    const chunks = async function* () {
      yield new Uint8Array(DISK_RECHECK_BYTES);
    };
    await assert.rejects(async () => {
      for await (const _ of streamed.through(chunks())) void _;
    }, (e: unknown) => isHashlineError(e) && e.code === 'insufficient_storage');
    // a watch whose total fits is never refused
    const fits = new ReserveWatch(dir, 'd', 0, 3 * DISK_RECHECK_BYTES);
    for (let i = 0; i < 3; i++) await fits.arriving(DISK_RECHECK_BYTES);
    assert.equal(fits.remaining, 0);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
});
