// The PostgreSQL history against a real local server (a scratch cluster started for this file):
// the same behaviour as SQLite through the same SQL — versions and rollback across engines (as
// across processes and restarts), the log with its origins, retention — plus what a fleet needs:
// several roots in one database, each with its own log, and a feed over all of them.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { LOG_ORDER_LOCK } from '../../../src/io/history/pg-runner.js';
import { runTool } from '../../../src/mcp/server.js';
import { createEngine, type Engine } from '../../../src/tools/engine.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { callContext } from '../../helpers/engine.js';
import { skipWithoutPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const skip = skipWithoutPostgres();
let pg: Postgres | undefined;
let dbCount = 0;
const sandboxes: Sandbox[] = [];
const engines: Engine[] = [];

before(async () => {
  if (!skip) pg = await startPostgres();
});
after(() => pg?.stop());
afterEach(async () => {
  for (const e of engines.splice(0)) await e.history.close();
  for (const s of sandboxes.splice(0)) await s.cleanup();
});

async function sandbox(files: Record<string, string>): Promise<Sandbox> {
  const sb = await makeSandbox(files);
  sandboxes.push(sb);
  return sb;
}

async function engineOn(root: string, url: string, history: Record<string, number> = {}): Promise<Engine> {
  const e = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [], history: url }, { history }), {
    report: (m) => assert.fail(`unexpected report: ${m}`),
  });
  engines.push(e);
  return e;
}

const call = (id: string) => ({ ...callContext(), client: { id } });
const structured = (r: { structuredContent?: unknown }) => r.structuredContent as Record<string, any>;

test('versions recorded by one engine are seen and rolled back by another (as across processes)', { skip }, async () => {
  const url = pg!.createDb(`h${++dbCount}`);
  const sb = await sandbox({ 'a.txt': 'one\ntwo\n' });
  const a = await engineOn(sb.root, url);
  assert.deepEqual({ backend: a.history.status().backend, durable: a.history.status().durable }, { backend: 'postgres', durable: true });
  const read = await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call('one-shot-1'));
  const tag = structured(read).results[0].file_hash as string;
  await a.history.close();
  engines.splice(engines.indexOf(a), 1);

  // a second engine (the next process of a one-shot client) edits with the first one's tag
  const b = await engineOn(sb.root, url);
  const edit = await runTool(b, fsEditTool, { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 2:\n+TWO' }] }, call('one-shot-2'));
  assert.equal(edit.isError, undefined, JSON.stringify(edit.content));
  assert.deepEqual(structured(edit).results[0].warnings, []);

  const c = await engineOn(sb.root, url);
  const back = await runTool(c, fsRollbackTool, { path: 'a.txt', hash: '' }, call('one-shot-3'));
  assert.equal(back.isError, undefined, JSON.stringify(back.content));
  assert.equal(readFileSync(path.join(sb.root, 'a.txt'), 'utf8'), 'one\ntwo\n');
  const feed = await c.history.query!.feed();
  assert.deepEqual(feed.map((f) => [f.op, f.tool, f.client]), [
    ['made', 'fs_rollback', 'one-shot-3'],
    ['made', 'fs_edit', 'one-shot-2'],
    ['seen', 'fs_read', 'one-shot-1'],
  ]);
  const content = await c.history.query!.content(feed[1]!.id);
  assert.equal(Buffer.from(content!.bytes).toString(), 'one\nTWO\n');
});

test('a fleet: several roots write one database, each sees its own versions; the feed can show all', { skip }, async () => {
  const url = pg!.createDb(`h${++dbCount}`);
  const [s1, s2] = [await sandbox({ 'f.txt': 'x\n' }), await sandbox({ 'f.txt': 'x\n' })];
  const [e1, e2] = [await engineOn(s1.root, url), await engineOn(s2.root, url)];
  const f1 = path.join(e1.guard.realRoot, 'f.txt');
  const f2 = path.join(e2.guard.realRoot, 'f.txt');
  e1.history.record(f1, 'one\n', { kind: 'made' });
  e2.history.record(f2, 'two\n', { kind: 'made' });
  await Promise.all([e1.history.flush(), e2.history.flush()]);
  await e1.history.load([f1, f2]);
  assert.deepEqual(e1.history.versions(f1).map((v) => v.text), ['one\n']);
  assert.deepEqual(e1.history.versions(f2), [], "another root's paths are not this root's");
  assert.equal((await e1.history.query!.feed()).length, 1);
  const all = await e1.history.query!.feed({ allRoots: true });
  assert.deepEqual(all.map((f) => f.tag).sort(), [computeTag('one\n'), computeTag('two\n')].sort());
  assert.equal(new Set(all.map((f) => f.root)).size, 2);
  assert.equal((await e1.history.query!.stats()).blobs, 2);
});

test('two engines recording at once into one root lose nothing', { skip }, async () => {
  const url = pg!.createDb(`h${++dbCount}`);
  const sb = await sandbox({});
  const [a, b] = [await engineOn(sb.root, url), await engineOn(sb.root, url)];
  const real = (e: Engine, i: number) => path.join(e.guard.realRoot, `f${i % 5}.txt`);
  await Promise.all(
    [a, b].map(async (e, k) => {
      for (let i = 0; i < 40; i++) {
        e.history.record(real(e, i), `${k}:${i}\n`, { kind: 'made' });
        if (i % 3 === 0) await e.history.flush();
      }
      await e.history.flush();
    }),
  );
  const feed = await a.history.query!.feed({ limit: 1000 });
  assert.equal(feed.length, 80);
  await a.history.load([real(a, 0)]);
  // each path's window holds its newest 10 distinct versions, from both engines
  assert.equal(a.history.versions(real(a, 0)).length, 10);
  assert.equal(a.history.status().durable, true);
  assert.equal(b.history.status().durable, true);
});

test('retention runs the same SQL on PostgreSQL', { skip }, async () => {
  const url = pg!.createDb(`h${++dbCount}`);
  const sb = await sandbox({});
  const e = await engineOn(sb.root, url, { max_versions: 2, max_age_days: 1 });
  const real = path.join(e.guard.realRoot, 'a.txt');
  for (let i = 0; i < 5; i++) e.history.record(real, `a${i}\n`, { kind: 'made' });
  assert.equal(await e.history.query!.maintain(), 3);
  await e.history.load([real]);
  assert.deepEqual(e.history.versions(real).map((v) => v.text), ['a3\n', 'a4\n']);
  assert.equal(await e.history.query!.maintain(Date.now() + 3 * 86_400_000), 2);
  assert.deepEqual((await e.history.query!.stats()).blobs, 0);
});

test('writes commit in id order: a write waits for the log-order lock another transaction holds', { skip }, async () => {
  const url = pg!.createDb(`h${++dbCount}`);
  const sb = await sandbox({});
  const e = await engineOn(sb.root, url);
  const real = path.join(e.guard.realRoot, 'a.txt');
  e.history.record(real, 'a0\n', { kind: 'made' });
  await e.history.flush(); // schema and root made
  const pgModule = (await import('pg')).default;
  const holder = new pgModule.Client({ connectionString: url });
  const observer = new pgModule.Client({ connectionString: url });
  await Promise.all([holder.connect(), observer.connect()]);
  try {
    // another writer's transaction, holding the lock between taking an id and committing
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1)', [LOG_ORDER_LOCK]);
    e.history.record(real, 'a1\n', { kind: 'made' });
    const written = e.history.flush();
    // the engine's write transaction waits for that lock (seen as a lock request not granted)
    let waiting = 0;
    for (let i = 0; i < 600 && waiting === 0; i++) {
      const r = await observer.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1", [LOG_ORDER_LOCK]);
      waiting = r.rows[0].n as number;
      if (waiting === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(waiting, 1, 'the write did not wait for the log-order lock');
    const before = await observer.query('SELECT count(*)::int AS n FROM versions');
    assert.equal(before.rows[0].n, 1);
    await holder.query('COMMIT');
    await written;
    const feed = await e.history.query!.feed();
    assert.equal(feed.length, 2);
  } finally {
    await holder.end();
    await observer.end();
  }
});
