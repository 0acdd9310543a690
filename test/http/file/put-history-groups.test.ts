// PutRecorder hands an archive's files to the history in groups, each looked up at once: the files
// of a group that are new to the store cost one read of the store for the group, not one each, and
// every file lands in the history, before and after, in the order the files landed, under the
// request's origin. A real SQLite store; the recorder as the tar route uses it.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_LIMITS } from '../../../src/core/history/snapshot-store.js';
import { PutRecorder } from '../../../src/http/file/put-history.js';
import { DurableHistory } from '../../../src/io/history/durable-history.js';
import type { Op } from '../../../src/io/history/history-sql.js';
import { openStoreRunner } from '../../../src/io/history/open-history.js';
import type { Engine } from '../../../src/tools/engine.js';

test('a group of new files is looked up with one read; each is in the history with its origin', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-put-groups-'));
  const runner = openStoreRunner(path.join(dir, 'h.sqlite'), (m) => assert.fail(m));
  if ('error' in runner) throw new Error(runner.error);
  let reads = 0;
  const runSync = runner.runSync!.bind(runner);
  runner.runSync = <T>(op: () => Op<T>, write: boolean): T => {
    if (!write) reads++;
    return runSync(op, write);
  };
  const h = new DurableHistory(runner, { rootName: '/r', limits: DEFAULT_LIMITS, retention: { maxAgeMs: 0, maxVersionsPerFile: 0, maxBytes: 0 } });
  try {
    h.record('/r/old.txt', 'old\n', { kind: 'made' });
    await h.flush();
    reads = 0;
    const rec = new PutRecorder({ history: h } as unknown as Engine, 'http_put_tar', 'http:loopback');
    const files = Array.from({ length: 40 }, (_, i) => `/r/d/f${i}.txt`);
    for (const f of files) rec.record(f, undefined, Buffer.from(`text of ${f}\n`));
    rec.record('/r/old.txt', Buffer.from('old\n'), Buffer.from('new\n'));
    await rec.flush();
    assert.ok(reads <= 3, `${reads} reads for ${files.length + 1} files`);
    for (const f of [files[0]!, files[39]!]) assert.deepEqual(h.versions(f).map((v) => v.text), [`text of ${f}\n`]);
    assert.deepEqual(h.versions('/r/old.txt').map((v) => v.text), ['old\n', 'new\n']);
    const log = await h.query.timeline('/r/d/f7.txt');
    assert.deepEqual(log.map((e) => [e.op, e.tool, e.client, e.batch]), [['made', 'http_put_tar', 'http:loopback', rec.origin.batch]]);
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
