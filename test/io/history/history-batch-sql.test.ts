// Records committed together (history-batch-sql.ts) leave the same rows as the same records
// committed one by one with recordVersion: blobs, heads (with their order), paths (with their order)
// and log rows, in order, with a text already held, a path recorded twice in one group, content
// without a tag and a text the group repeats; and in a few statements, not six per record. On
// SQLite, and on PostgreSQL when it is on the machine (test/helpers/postgres.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { recordVersions } from '../../../src/io/history/history-batch-sql.js';
import { ensureRoot, recordVersion, type Op, type Query, type RecordFields } from '../../../src/io/history/history-sql.js';
import { openStoreRunner } from '../../../src/io/history/open-history.js';
import { PgRunner } from '../../../src/io/history/pg-runner.js';
import type { Runner } from '../../../src/io/history/runner.js';
import { skipWithoutPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';

const limits = { maxPaths: 50, maxVersionsPerPath: 10 };
const origin = { tool: 'http_put_tar', client: 'http:loopback', batch: 'b1' };

function rec(p: string, text: string | null, sha: string, op = 'made'): RecordFields {
  const data = Buffer.from(text ?? `bytes of ${sha}`);
  return { path: p, sha256: sha, tag: text === null ? null : `T${sha}`, kind: text === null ? 'bytes' : 'text', data, op, origin, time: 1, limits };
}

/** A history before the group: /r/a holds text s1 (s2 after it). */
const setup: RecordFields[] = [rec('/r/a', 'one', 's1'), rec('/r/a', 'two', 's2'), rec('/r/z', 'zed', 'sz')];
/** The group: new paths, a text /r/a holds already, a path twice, content without a tag, a repeated text. */
const group: RecordFields[] = [
  rec('/r/n1', 'new 1', 'n1'),
  rec('/r/n2', 'new 2', 'n2'),
  rec('/r/a', 'one', 's1', 'seen'),
  rec('/r/bin', null, 'b1'),
  rec('/r/n3', 'new 1', 'n1'),
  rec('/r/n1', 'new 1 again', 'n4'),
  rec('/r/n5', 'five', 'n5', 'seen'),
  rec('/r/n1', 'new 1', 'n1', 'seen'),
  ...Array.from({ length: 300 }, (_, i) => rec(`/r/many/${i}`, `m${i}`, `m${i}`)),
];

/** Runs `op` in one write transaction, counting its statements. */
async function run(runner: Runner, op: () => Op<unknown>): Promise<number> {
  let n = 0;
  await runner.run(function* () {
    const gen = op();
    let step = gen.next();
    while (!step.done) {
      n++;
      step = gen.next(yield step.value as Query);
    }
  }, true);
  return n;
}

async function dump(runner: Runner): Promise<unknown> {
  const all = (sql: string) => runner.run(function* () {
    return (yield { sql, params: [] }).map((r) => JSON.stringify(Object.values(r), (_, v) => (typeof v === 'object' && v !== null && 'length' in v && !Array.isArray(v) ? Buffer.from(v as Uint8Array).toString('hex') : v)));
  }, false);
  return {
    blobs: await all('SELECT sha256, kind, size, data FROM blobs ORDER BY sha256'),
    heads: await all('SELECT path, sha256, tag, seq, seen FROM heads ORDER BY seq, path'),
    paths: await all('SELECT path, seq FROM paths ORDER BY seq, path'),
    log: await all('SELECT id, path, sha256, tag, size, kind, op, tool, client, batch, time FROM versions ORDER BY id'),
    seq: await all('SELECT seq FROM roots'),
  };
}

async function compare(open: (name: string) => Promise<Runner>): Promise<void> {
  const one = await open('one');
  const grouped = await open('grouped');
  try {
    for (const r of [one, grouped]) {
      const root = await r.run(() => ensureRoot('/r'), true);
      for (const s of setup) await run(r, () => recordVersion(root.id, s));
    }
    for (const g of group) await run(one, () => recordVersion(1, g));
    const statements = await run(grouped, () => recordVersions(1, group));
    assert.deepEqual(await dump(grouped), await dump(one));
    assert.ok(statements < group.length / 4, `${statements} statements for ${group.length} records`);
  } finally {
    await one.close();
    await grouped.close();
  }
}

test('a group of records leaves the rows the same records leave one by one (SQLite)', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-batch-sql-'));
  try {
    await compare(async (name) => {
      const r = openStoreRunner(path.join(dir, `${name}.sqlite`));
      if ('error' in r) throw new Error(r.error);
      return r;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const skip = skipWithoutPostgres();
let pg: Postgres | undefined;
before(async () => {
  if (!skip) pg = await startPostgres();
});
after(() => pg?.stop());

test('a group of records leaves the rows the same records leave one by one (PostgreSQL)', { skip }, async () => {
  await compare((name) => PgRunner.connect(pg!.createDb(`batch_${name}`)));
});
