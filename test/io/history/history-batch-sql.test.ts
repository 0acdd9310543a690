// Writes committed together (history-batch-sql.ts) leave the same rows as the same writes
// committed one by one (recordVersion, anchorVersion, addSeen): blobs, heads (with their order and
// seen lines), paths (with their order) and log rows, in order, with a text already held, a path
// recorded twice in one group, content without a tag and a text the group repeats; a rewrite's
// chunk (each file's text before, re-anchored, its text after, lines of it marked seen) over paths
// in and out of the window; random groups over small windows; and in a few statements, not six
// per record. On SQLite, and on PostgreSQL when it is on the machine (test/helpers/postgres.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { groupWrites, type GroupWrite } from '../../../src/io/history/history-batch-sql.js';
import { addSeen, anchorVersion, ensureRoot, recordVersion, type Op, type Query, type RecordFields } from '../../../src/io/history/history-sql.js';
import { openStoreRunner } from '../../../src/io/history/open-history.js';
import { PgRunner } from '../../../src/io/history/pg-runner.js';
import type { Runner } from '../../../src/io/history/runner.js';
import { skipWithoutPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';

const limits = { maxPaths: 50, maxVersionsPerPath: 10 };
const origin = { tool: 'http_put_tar', client: 'http:loopback', batch: 'b1' };

function rec(p: string, text: string | null, sha: string, op = 'made', lim = limits, touch?: boolean): RecordFields {
  const data = Buffer.from(text ?? `bytes of ${sha}`);
  return { path: p, sha256: sha, tag: text === null ? null : `T${sha}`, kind: text === null ? 'bytes' : 'text', data, op, origin, time: 1, limits: lim, ...(touch === undefined ? {} : { touch }) };
}

/** One write alone, as history-sql.ts makes it. */
function* oneWrite(root: number, w: GroupWrite): Op<unknown> {
  if ('record' in w) return yield* recordVersion(root, w.record);
  if ('anchor' in w) return yield* anchorVersion(root, w.anchor.path, w.anchor.sha256);
  return yield* addSeen(root, w.seen.path, w.seen.sha256, w.seen.lines);
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

/**
 * Runs `setup` one by one on two stores, then each group of `groups` one write at a time on the
 * first and as one group on the second (each group in its own transaction), comparing the rows
 * after each group; returns the grouped statements.
 */
async function compareGroups(open: (name: string) => Promise<Runner>, setupWrites: readonly GroupWrite[], groups: readonly (readonly GroupWrite[])[], name = ''): Promise<number> {
  const one = await open(`one${name}`);
  const grouped = await open(`grouped${name}`);
  let statements = 0;
  try {
    for (const r of [one, grouped]) {
      const root = await r.run(() => ensureRoot('/r'), true);
      for (const s of setupWrites) await run(r, () => oneWrite(root.id, s));
    }
    for (const [i, g] of groups.entries()) {
      for (const w of g) await run(one, () => oneWrite(1, w));
      statements += await run(grouped, () => groupWrites(1, g));
      assert.deepEqual(await dump(grouped), await dump(one), `group ${i}`);
    }
  } finally {
    await one.close();
    await grouped.close();
  }
  return statements;
}

const records = (rs: readonly RecordFields[]): GroupWrite[] => rs.map((record) => ({ record }));

/** A rewrite's chunk, as fs_ast_edit queues it: per file its text before, re-anchored, its text after, shown lines of it. */
function chunk(files: readonly string[], before: (f: string) => string, after: (f: string) => string): GroupWrite[] {
  return files.flatMap((f): GroupWrite[] => [
    { record: rec(f, before(f), before(f), 'seen') },
    { anchor: { path: f, sha256: before(f) } },
    { record: rec(f, after(f), after(f)) },
    { seen: { path: f, sha256: after(f), lines: [1, 2, 3] } },
  ]);
}

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random groups of every kind of write over 8 paths, 5 texts each, in windows of 3 paths and 2 versions. */
function randomGroups(seed: number): GroupWrite[][] {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const small = { maxPaths: 3, maxVersionsPerPath: 2 };
  return Array.from({ length: 6 }, () => Array.from({ length: 8 + pick(30) }, (): GroupWrite => {
    const p = `/r/p${pick(8)}`;
    const t = `${p}:${pick(5)}`;
    const k = pick(10);
    if (k < 5) return { record: rec(p, t, t, k < 2 ? 'seen' : 'made', small, pick(2) === 0) };
    if (k < 6) return { record: rec(p, null, `b${pick(3)}`) };
    if (k < 8) return { anchor: { path: p, sha256: t } };
    return { seen: { path: p, sha256: t, lines: [1 + pick(4), 1 + pick(4)] } };
  }));
}

async function compare(open: (name: string) => Promise<Runner>): Promise<void> {
  const statements = await compareGroups(open, records(setup), [records(group)]);
  assert.ok(statements < group.length / 4, `${statements} statements for ${group.length} records`);
  // a rewrite's chunks over 80 files, twice (the second time every text is held, most paths out of the window)
  const files = Array.from({ length: 80 }, (_, i) => `/r/src/f${i}`);
  const chunks = [0, 1].flatMap(() => [files.slice(0, 32), files.slice(32, 64), files.slice(64)].map((fs) => chunk(fs, (f) => `${f}:before`, (f) => `${f}:after`)));
  const chunked = await compareGroups(open, [], chunks, '_chunks');
  assert.ok(chunked < (chunks.flat().length) / 8, `${chunked} statements for ${chunks.flat().length} writes`);
  for (const seed of [1, 2, 3, 4]) await compareGroups(open, [], randomGroups(seed), `_random${seed}`);
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

test('the SQLite store keeps the statement journals of multi-row writes in memory (temp_store = MEMORY), not in temporary files', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-batch-sql-'));
  try {
    const r = openStoreRunner(path.join(dir, 'h.sqlite'));
    if ('error' in r) throw new Error(r.error);
    const rows = await r.run(function* (): Op<Record<string, unknown>[]> {
      return yield { sql: 'PRAGMA temp_store', params: [] };
    }, false);
    assert.equal(Number(Object.values(rows[0]!)[0]), 2);
    await r.close();
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
