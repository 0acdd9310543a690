// The SQLite history on a real file: versions and rollback survive a restart, the file is private
// and outside the root, content is stored once, the log says who changed what, a damaged file is
// moved aside (never emptied in place), a Node without node:sqlite falls back to memory with a
// warning, and the legacy JSON history is migrated once.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import type { ConfigDoc } from '../../../src/core/config/config-schema.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { historyFileFor, historyStoreFor } from '../../../src/io/history/history-file.js';
import { runTool } from '../../../src/mcp/server.js';
import { createEngine, type Engine, type EngineOptions } from '../../../src/tools/engine.js';
import type { LazyHistory } from '../../../src/io/history/lazy-history.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { callContext } from '../../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
let state: string | undefined;
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.history.close();
  await sb?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
  sb = undefined;
  state = undefined;
});

async function setup(files: Record<string, string>, doc: ConfigDoc = {}, options: EngineOptions = {}): Promise<{ root: string; open: () => Promise<Engine> }> {
  sb = await makeSandbox(files);
  state = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }, doc);
  return {
    root: sb.root,
    open: async () => {
      const e = await createEngine(config, { stateDir: state, ...options });
      engines.push(e);
      return e;
    },
  };
}

const call = (id = 'test-client') => ({ ...callContext(), client: { id, name: 'hashline-test' } });
const structured = (r: { structuredContent?: unknown }) => r.structuredContent as Record<string, any>;

test('versions and rollback survive a restart; the store is private, outside the root, one file per root', async () => {
  const { root, open } = await setup({ 'a.txt': 'one\ntwo\n' });
  const a = await open();
  const read = await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call());
  const tag = structured(read).results[0].file_hash as string;
  const edit = await runTool(a, fsEditTool, { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 2:\n+TWO' }] }, call());
  assert.equal(edit.isError, undefined, JSON.stringify(edit.content));
  await a.history.close();
  engines.splice(engines.indexOf(a), 1);

  const file = historyStoreFor(a.guard.realRoot, state);
  assert.equal(a.history.status().location, file);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(path.dirname(file)).mode & 0o777, 0o700);
  assert.ok(!file.startsWith(root));

  const b = await open();
  assert.equal(b.history.status().backend, 'sqlite');
  const real = path.join(b.guard.realRoot, 'a.txt');
  assert.deepEqual(b.history.versions(real).map((v) => v.text), ['one\ntwo\n', 'one\nTWO\n']);
  assert.ok(b.history.versions(real)[0]!.seen.has(2), 'the lines shown by the read are kept');
  const back = await runTool(b, fsRollbackTool, { path: 'a.txt', hash: '' }, call());
  assert.equal(back.isError, undefined, JSON.stringify(back.content));
  assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\ntwo\n');
});

test('the log names tool, client and batch; identical content is stored once', async () => {
  const { open } = await setup({ 'a.txt': 'x\n', 'b.txt': 'x\n' });
  const e = await open();
  await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }, { path: 'b.txt' }] }, call('client-1'));
  const tag = computeTag('x\n');
  await runTool(e, fsEditTool, { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 1:\n+y' }, { path: 'b.txt', file_hash: tag, ops: 'replace 1:\n+y' }] }, call('client-2'));
  const feed = await e.history.query!.feed({ limit: 10 });
  // newest first: the two edits (one batch), then the two reads' first sightings
  assert.deepEqual(feed.map((f) => [path.basename(f.path), f.op, f.tool, f.client]), [
    ['b.txt', 'made', 'fs_edit', 'client-2'],
    ['a.txt', 'made', 'fs_edit', 'client-2'],
    ['b.txt', 'seen', 'fs_read', 'client-1'],
    ['a.txt', 'seen', 'fs_read', 'client-1'],
  ]);
  assert.equal(feed[0]!.batch, feed[1]!.batch);
  assert.notEqual(feed[0]!.batch, feed[2]!.batch);
  assert.equal(feed[0]!.clientName, 'hashline-test');
  assert.equal(feed[0]!.tag, computeTag('y\n'));
  assert.equal(feed[0]!.sha256, feed[1]!.sha256);
  const stats = await e.history.query!.stats();
  assert.equal(stats.entries, 4);
  assert.equal(stats.blobs, 2, 'x and y, each once');
  const content = await e.history.query!.content(feed[0]!.id);
  assert.equal(Buffer.from(content!.bytes).toString('utf8'), 'y\n');
  // a cursor: nothing after the newest, the newest after the one before it
  assert.deepEqual(await e.history.query!.feed({ after: feed[0]!.id }), []);
  assert.deepEqual((await e.history.query!.feed({ after: feed[1]!.id })).map((f) => f.id), [feed[0]!.id]);
  assert.deepEqual((await e.history.query!.feed({ tool: 'fs_read' })).length, 2);
  assert.deepEqual((await e.history.query!.feed({ path: path.join(e.guard.realRoot, 'a.txt') })).length, 2);
  assert.deepEqual((await e.history.query!.timeline(path.join(e.guard.realRoot, 'b.txt'))).map((f) => f.op), ['made', 'seen']);
});

test('the change stamp moves when this process or another commits', async () => {
  const { open } = await setup({ 'a.txt': 'x\n' });
  const a = await open();
  const b = await open();
  // both have made the root's row (the first of them to look writes it)
  a.history.versions(path.join(a.guard.realRoot, 'a.txt'));
  b.history.versions(path.join(b.guard.realRoot, 'a.txt'));
  const s0 = await a.history.query!.changeStamp();
  assert.equal(await a.history.query!.changeStamp(), s0);
  b.history.record(path.join(b.guard.realRoot, 'a.txt'), 'from b\n');
  // a call's writes commit together when the adapter flushes before replying
  assert.equal(await a.history.query!.changeStamp(), s0);
  await b.history.flush();
  const s1 = await a.history.query!.changeStamp();
  assert.notEqual(s1, s0);
  a.history.record(path.join(a.guard.realRoot, 'a.txt'), 'from a\n');
  await a.history.flush();
  assert.notEqual(await a.history.query!.changeStamp(), s1);
  // and a sees b's version without a restart
  assert.deepEqual(a.history.versions(path.join(a.guard.realRoot, 'a.txt')).map((v) => v.text), ['from b\n', 'from a\n']);
});

test('a damaged store is moved aside and reported, and a new one is started', async () => {
  const { open } = await setup({ 'a.txt': 'x\n' });
  const probe = await open();
  const file = historyStoreFor(probe.guard.realRoot, state);
  mkdirSync(path.dirname(file), { recursive: true });
  const garbage = Buffer.from('this is not a database, but it is what the user had'.repeat(100));
  writeFileSync(file, garbage);
  const reports: string[] = [];
  const e = await (async () => {
    const config = mergeConfig({ root: sb!.root, allow: [], block: [], readAllow: [], readBlock: [] });
    const x = await createEngine(config, { stateDir: state, report: (m) => reports.push(m) });
    engines.push(x);
    return x;
  })();
  const real = path.join(e.guard.realRoot, 'a.txt');
  assert.equal(e.history.record(real, 'x\n'), computeTag('x\n'));
  assert.equal(reports.length, 1, reports.join('\n'));
  assert.match(reports[0]!, /damaged .* moved aside to .*\.corrupt-/);
  const aside = readdirSync(path.dirname(file)).filter((n) => n.includes('.corrupt-') && !n.endsWith('-wal') && !n.endsWith('-shm'));
  assert.equal(aside.length, 1);
  assert.deepEqual(readFileSync(path.join(path.dirname(file), aside[0]!)), garbage, 'the damaged file is kept as it was');
  assert.equal(e.history.status().durable, true);
  assert.deepEqual(e.history.versions(real).map((v) => v.text), ['x\n']);
});

test('without node:sqlite the server starts on the in-memory history, with a one-line warning', async () => {
  const reports: string[] = [];
  const { open } = await setup({ 'a.txt': 'x\n' }, {}, { loadSqlite: () => ({ error: 'node:sqlite is not in Node v22.5.0; Node 22.13 or later has it' }), report: (m) => reports.push(m) });
  const e = await open();
  const status = e.history.status();
  assert.equal(status.backend, 'memory');
  assert.equal(status.durable, false);
  assert.match(status.warning!, /SQLite history unavailable \(node:sqlite is not in Node v22.5.0; Node 22.13 or later has it\); using the in-memory history/);
  assert.deepEqual(reports, [status.warning]);
  assert.ok(!status.warning!.includes('\n'));
  // and the tools work
  const read = await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, call());
  const edit = await runTool(e, fsEditTool, { targets: [{ path: 'a.txt', file_hash: structured(read).results[0].file_hash, ops: 'replace 1:\n+y' }] }, call());
  assert.equal(edit.isError, undefined);
});

test('the 0.1 JSON history is migrated into the store once, then renamed', async () => {
  const reports: string[] = [];
  const { open } = await setup({ 'a.txt': 'new\n' }, {}, { report: (m) => reports.push(m) });
  const probe = await open();
  const realRoot = probe.guard.realRoot;
  const real = path.join(realRoot, 'a.txt');
  const json = historyFileFor(realRoot, state);
  mkdirSync(path.dirname(json), { recursive: true });
  writeFileSync(json, JSON.stringify({ format: 1, root: realRoot, state: { paths: [{ path: real, versions: [{ text: 'old\n', seen: [1] }, { text: 'older edit\n', seen: [] }] }] } }));
  const e = await open();
  assert.deepEqual(e.history.versions(real).map((v) => v.text), ['old\n', 'older edit\n']);
  assert.ok(e.history.versions(real)[0]!.seen.has(1));
  assert.equal(existsSync(json), false);
  assert.equal(existsSync(`${json}.migrated`), true);
  assert.ok(reports.some((r) => r.startsWith('migrated 2 versions')), reports.join('\n'));
  const feed = await e.history.query!.feed();
  assert.deepEqual(feed.map((f) => [f.op, f.tool]), [['migrated', 'migration'], ['migrated', 'migration']]);
});

test('retention removes entries by age, by count per file and by size, and the content nothing refers to', async () => {
  const { open } = await setup({}, { history: { max_age_days: 1, max_versions: 3, max_bytes: 0 } });
  const e = await open();
  const real = (n: string) => path.join(e.guard.realRoot, n);
  for (let i = 0; i < 6; i++) e.history.record(real('a.txt'), `a${i}\n`, { kind: 'made' });
  e.history.record(real('b.txt'), 'b\n', { kind: 'made' });
  const q = e.history.query!;
  assert.equal((await q.stats()).entries, 7);
  assert.equal(await q.maintain(), 3, 'a.txt keeps its newest 3');
  assert.deepEqual((await q.timeline(real('a.txt'))).map((x) => x.sha256 !== null), [true, true, true]);
  assert.equal((await q.stats()).blobs, 4);
  // the window the tools see holds only what is still stored
  const reopened = await open();
  assert.deepEqual(reopened.history.versions(real('a.txt')).map((v) => v.text), ['a3\n', 'a4\n', 'a5\n']);
  // two days later everything is older than a day
  assert.equal(await q.maintain(Date.now() + 2 * 86_400_000), 4);
  assert.deepEqual(await q.stats(), { entries: 0, blobs: 0, blobBytes: 0, fileBytes: (await q.stats()).fileBytes });
});

test('retention by size removes the oldest entries until the root fits', async () => {
  const { open } = await setup({}, { history: { max_age_days: 0, max_versions: 0, max_bytes: 4096 } });
  const e = await open();
  const real = path.join(e.guard.realRoot, 'big.txt');
  for (let i = 0; i < 10; i++) e.history.record(real, `${String(i).repeat(1000)}\n`, { kind: 'made' });
  const q = e.history.query!;
  assert.equal((await q.stats()).blobBytes, 10 * 1001);
  await q.maintain();
  const s = await q.stats();
  assert.ok(s.blobBytes <= 4096, String(s.blobBytes));
  const left = await q.timeline(real);
  assert.ok(left.length >= 1 && left.length <= 4);
  assert.equal(left[0]!.tag, computeTag(`${'9'.repeat(1000)}\n`), 'the newest stays');
});

test('a state directory inside the project is refused: the history stays in memory, with a warning', async () => {
  const reports: string[] = [];
  sb = await makeSandbox({ 'a.txt': 'x\n' });
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] });
  const e = await createEngine(config, { stateDir: path.join(sb.root, '.state'), report: (m) => reports.push(m) });
  engines.push(e);
  assert.equal(e.history.status().backend, 'memory');
  assert.match(reports.join('\n'), /would be inside the project; using the in-memory history/);
  assert.equal(existsSync(path.join(sb.root, '.state')), false, 'nothing made inside the root');
});

test('the window is the seed\'s: 50 paths least recently used first (a known text recorded again counts as a use)', async () => {
  const { open } = await setup({});
  const e = await open();
  const p = (i: number) => path.join(e.guard.realRoot, `p${i}.txt`);
  for (let i = 0; i < 50; i++) e.history.record(p(i), 'x\n');
  e.history.record(p(0), 'x\n'); // a use of p0
  e.history.record(p(50), 'x\n');
  await e.history.flush();
  for (const h of [e, await open()]) {
    assert.equal(h.history.versions(p(0)).length, 1);
    assert.equal(h.history.versions(p(1)).length, 0);
    assert.equal(h.history.versions(p(50)).length, 1);
  }
});

test('new paths recorded in a row commit together; a window loaded meanwhile counts the queued paths as newer', async () => {
  const { open } = await setup({});
  const a = await open();
  const p = (i: number) => path.join(a.guard.realRoot, `p${i}.txt`);
  const q = (i: number) => path.join(a.guard.realRoot, `q${i}.txt`);
  for (let i = 0; i < 50; i++) a.history.record(p(i), `p${i}\n`);
  await a.history.flush();
  const b = await open(); // no window cached
  // the engine's store is built on first use (io/history/lazy-history.ts): the durable store behind it
  const store = (b.history as LazyHistory).live as unknown as { localCommits: number };
  const before = store.localCommits;
  assert.equal(typeof before, 'number');
  for (let i = 0; i < 10; i++) b.history.record(q(i), `q${i}\n`, { kind: 'made' });
  assert.equal(store.localCommits, before, 'recording new paths commits nothing yet: one transaction at the flush');
  // p5 is 45th of 50 on disk, but the 10 queued paths push it out of the window; p45 stays in it
  assert.equal(b.history.versions(p(5)).length, 0);
  assert.equal(b.history.versions(p(45)).length, 1);
  await b.history.flush();
  for (const h of [b, await open()]) {
    assert.equal(h.history.versions(q(0)).length, 1);
    assert.equal(h.history.versions(p(5)).length, 0);
  }
});

test('served over MCP, a read commits in the turn after its reply is made; a change commits before its reply', async () => {
  const { root, open } = await setup({ 'a.txt': 'one\ntwo\n' });
  const a = await open();
  // another connection to the same store, as another process sees it
  const b = await open();
  const real = path.join(a.guard.realRoot, 'a.txt');
  const texts = () => b.history.versions(real).map((v) => v.text);
  const served = { commitReadsAfterReply: true };
  const read = await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call(), served);
  const tag = structured(read).results[0].file_hash as string;
  assert.deepEqual(texts(), [], 'the reply is made before the commit');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(texts(), ['one\ntwo\n'], 'committed once the turn is over');
  assert.ok(b.history.versions(real)[0]!.seen.has(2), 'with the lines shown');
  // a change is stored before its reply, option or not
  const edit = await runTool(a, fsEditTool, { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 2:\n+TWO' }] }, call(), served);
  assert.equal(edit.isError, undefined, JSON.stringify(edit.content));
  assert.deepEqual(texts(), ['one\ntwo\n', 'one\nTWO\n']);
  // a direct caller (no option) finds a read stored when the call returns
  writeFileSync(path.join(root, 'a.txt'), 'three\n');
  await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call());
  assert.deepEqual(texts(), ['one\ntwo\n', 'one\nTWO\n', 'three\n']);
  // a read queued for after its reply is committed first by the next call, in order
  writeFileSync(path.join(root, 'a.txt'), 'four\n');
  await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call(), served);
  writeFileSync(path.join(root, 'a.txt'), 'five\n');
  await runTool(a, fsReadTool, { targets: [{ path: 'a.txt' }] }, call());
  assert.deepEqual(texts().slice(-2), ['four\n', 'five\n']);
});

test('a text given with its bytes is found by them: recorded once, with or without bytes; NUL and size refused as for the text', async () => {
  const { open } = await setup({ 'a.txt': 'x\n' });
  const a = await open();
  const real = path.join(a.guard.realRoot, 'a.txt');
  const enc = (t: string) => Buffer.from(t, 'utf8');
  // a rope, as a whole read gives it, and a flat copy of the same text
  const rope = ['const é = 1;\n'.repeat(3000), 'tail\n'].reduce((x, y) => x + y, '');
  const flat = Buffer.from(rope).toString('utf8');
  assert.equal(a.history.record(real, rope, { bytes: enc(rope) }), computeTag(rope));
  assert.equal(a.history.record(real, flat, { bytes: enc(flat) }), computeTag(rope));
  assert.equal(a.history.record(real, flat), computeTag(rope));
  a.history.markSeen(real, rope, [1, 2]);
  assert.deepEqual(a.history.versions(real).map((v) => v.text.length), [rope.length]);
  // a lone surrogate encodes as U+FFFD does: the same bytes, but not the same text, so not the same version
  assert.notEqual(a.history.record(real, 'a\uD800\n'), null);
  assert.notEqual(a.history.record(real, 'a\uFFFD\n', { bytes: enc('a\uFFFD\n') }), null);
  assert.deepEqual(a.history.versions(real).map((v) => v.text), [rope, 'a\uD800\n', 'a\uFFFD\n']);
  assert.equal(a.history.record(real, 'nul\0\n', { bytes: enc('nul\0\n') }), null);
  const over = 'y'.repeat(a.history.limits.maxSnapshotBytes + 1);
  assert.equal(a.history.record(real, over, { bytes: enc(over) }), null);
  await a.history.flush();
  const b = await open();
  assert.equal(b.history.versions(real)[0]!.text, rope);
  assert.ok(b.history.versions(real)[0]!.seen.has(2));
});

test('an empty version whose bytes have no memory behind them (TextEncoder of "") is stored as an empty blob, not NULL: the store stays durable', async () => {
  const { open } = await setup({ 'e.txt': '' });
  const a = await open();
  const real = path.join(a.guard.realRoot, 'e.txt');
  const empty = new TextEncoder().encode('');
  // alone (one row) and beside another version (a multi-row commit, as a tar's members)
  a.history.record(real, '', { bytes: empty, kind: 'made' });
  a.history.record(real, 'x\n', { kind: 'made' });
  await a.history.flush();
  assert.equal(a.history.status().backend, 'sqlite');
  assert.equal(a.history.status().warning, undefined);
  await a.history.close();
  engines.splice(engines.indexOf(a), 1);
  const b = await open();
  assert.deepEqual(b.history.versions(real).map((v) => v.text), ['', 'x\n']);
});
