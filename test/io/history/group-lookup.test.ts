// A group's paths looked up together (DurableHistory.load on SQLite, as an HTTP PUT of an archive
// hands its files over): recording the group's new paths then reads the store once, not once per
// path, and what the history holds is what it holds without the lookup. A path another process
// recorded after the lookup, or one renamed onto meanwhile, is read again, not taken as new. On
// PostgreSQL (when on the machine) a group loads in one transaction, with the windows it had. Paths
// the store holds out of the window are in no window either; the store's change stamp is read once
// per synchronous stretch of questions.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { DEFAULT_LIMITS } from '../../../src/core/history/snapshot-store.js';
import { DurableHistory } from '../../../src/io/history/durable-history.js';
import type { Op } from '../../../src/io/history/history-sql.js';
import { openStoreRunner } from '../../../src/io/history/open-history.js';
import { PgRunner } from '../../../src/io/history/pg-runner.js';
import type { Runner } from '../../../src/io/history/runner.js';
import { skipWithoutPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';

const dirs: string[] = [];
const open: DurableHistory[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A SQLite runner counting its read transactions and its reads of the change stamp. */
function counted(file: string): Runner & { reads: number; stamps: number } {
  const r = openStoreRunner(file, (m) => assert.fail(m));
  if ('error' in r) throw new Error(r.error);
  const runSync = r.runSync!.bind(r);
  const stamp = r.stamp!.bind(r);
  return Object.assign(r, {
    reads: 0,
    stamps: 0,
    runSync<T>(op: () => Op<T>, write: boolean): T {
      if (!write) this.reads++;
      return runSync(op, write);
    },
    stamp(): number {
      this.stamps++;
      return stamp();
    },
  });
}

function history(file: string): { h: DurableHistory; runner: Runner & { reads: number; stamps: number } } {
  const runner = counted(file);
  const h = new DurableHistory(runner, { rootName: '/r', limits: DEFAULT_LIMITS, retention: { maxAgeMs: 0, maxVersionsPerFile: 0, maxBytes: 0 } });
  open.push(h);
  return { h, runner };
}

function store(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-group-lookup-'));
  dirs.push(dir);
  return path.join(dir, 'h.sqlite');
}

test('a group of new paths looked up together is read once; the versions are the same', async () => {
  const { h, runner } = history(store());
  h.record('/r/old', 'old\n', { kind: 'made' });
  await h.flush();
  const paths = Array.from({ length: 30 }, (_, i) => `/r/d/f${i}`);
  runner.reads = 0;
  await h.load([...paths, '/r/old']);
  for (const p of paths) h.record(p, `text of ${p}\n`, { kind: 'made' });
  h.record('/r/old', 'new\n', { kind: 'made' });
  await h.flush();
  assert.ok(runner.reads <= 3, `${runner.reads} reads for 31 paths`);
  assert.deepEqual(h.versions('/r/old').map((v) => v.text), ['old\n', 'new\n']);
  const { h: other } = history(runner.location);
  for (const p of paths.slice(0, 5)) assert.deepEqual(other.versions(p).map((v) => v.text), [`text of ${p}\n`]);
});

test('a path recorded by another process after the lookup, or renamed onto, is read again', async () => {
  const file = store();
  const { h } = history(file);
  const { h: other } = history(file);
  h.root();
  other.root();
  await h.load(['/r/a', '/r/b', '/r/c', '/r/x']);
  other.record('/r/a', 'from the other\n', { kind: 'made' });
  await other.flush();
  h.record('/r/a', 'mine\n', { kind: 'made' });
  assert.deepEqual(h.versions('/r/a').map((v) => v.text), ['from the other\n', 'mine\n']);
  h.record('/r/x', 'x\n', { kind: 'made' });
  h.rename('/r/x', '/r/b');
  assert.deepEqual(h.versions('/r/b').map((v) => v.text), ['x\n']);
});

test('paths the store holds but out of the window are looked up with the group too, and read no more when recorded', async () => {
  const { h, runner } = history(store());
  const old = Array.from({ length: 20 }, (_, i) => `/r/old/f${i}`);
  for (const p of old) h.record(p, `old ${p}\n`, { kind: 'made' });
  // 60 newer paths push the old ones out of the window (50 paths)
  for (let i = 0; i < 60; i++) h.record(`/r/new/f${i}`, `new ${i}\n`, { kind: 'made' });
  await h.flush();
  const { h: fresh, runner: freshRunner } = history(runner.location);
  await fresh.load(old);
  freshRunner.reads = 0;
  for (const p of old) {
    assert.deepEqual(fresh.versions(p), [], p);
    fresh.record(p, `old ${p}\n`);
    fresh.record(p, `rewritten ${p}\n`, { kind: 'made' });
  }
  assert.equal(freshRunner.reads, 0);
  await fresh.flush();
  const { h: other } = history(runner.location);
  assert.deepEqual(other.versions(old[19]!).map((v) => v.text), [`old ${old[19]}\n`, `rewritten ${old[19]}\n`]);
});

test('the change stamp is read once per synchronous stretch of questions; another process\'s commit is seen at the next', async () => {
  const file = store();
  const { h, runner } = history(file);
  const { h: other } = history(file);
  h.record('/r/a', 'a1\n', { kind: 'made' });
  await h.flush();
  other.root();
  await Promise.resolve();
  runner.stamps = 0;
  for (let i = 0; i < 20; i++) h.record(`/r/s${i}`, `s ${i}\n`, { kind: 'made' });
  assert.deepEqual(h.versions('/r/a').map((v) => v.text), ['a1\n']);
  assert.equal(runner.stamps, 1);
  await h.flush();
  other.record('/r/a', 'a2\n', { kind: 'made' });
  await other.flush();
  assert.deepEqual(h.versions('/r/a').map((v) => v.text), ['a1\n', 'a2\n']);
  assert.equal(runner.stamps, 2);
});

const skip = skipWithoutPostgres();
let pg: Postgres | undefined;
before(async () => {
  if (!skip) pg = await startPostgres();
});
after(() => pg?.stop());

test('PostgreSQL: a group loaded in one transaction has the windows of its known paths, none for new ones', { skip }, async () => {
  const url = pg!.createDb('group_lookup');
  const writer = new DurableHistory(await PgRunner.connect(url), { rootName: '/r', limits: DEFAULT_LIMITS, retention: { maxAgeMs: 0, maxVersionsPerFile: 0, maxBytes: 0 } });
  const reader = new DurableHistory(await PgRunner.connect(url), { rootName: '/r', limits: DEFAULT_LIMITS, retention: { maxAgeMs: 0, maxVersionsPerFile: 0, maxBytes: 0 } });
  open.push(writer, reader);
  await writer.open();
  await reader.open();
  writer.record('/r/a', 'a1\n', { kind: 'made' });
  writer.record('/r/a', 'a2\n', { kind: 'made' });
  writer.record('/r/b', 'b1\n', { kind: 'made' });
  await writer.flush();
  await reader.load(['/r/a', '/r/new', '/r/b']);
  assert.deepEqual(reader.versions('/r/a').map((v) => v.text), ['a1\n', 'a2\n']);
  assert.deepEqual(reader.versions('/r/b').map((v) => v.text), ['b1\n']);
  assert.deepEqual(reader.versions('/r/new'), []);
});
