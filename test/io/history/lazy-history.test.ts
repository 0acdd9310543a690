// The engine's history is built on its first use (io/history/lazy-history.ts): nothing is made in
// the state directory before it; what status() says before is what the built store says after;
// concurrent first uses build it once (the migration of 0.1's history runs and is reported once);
// flush() and close() before any use build nothing; a store that fails when it opens is reported
// once and the tools go on in memory.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { DEFAULT_HISTORY } from '../../../src/core/history/history-settings.js';
import type { HistoryStore } from '../../../src/core/history/history-store.js';
import { SnapshotStore } from '../../../src/core/history/snapshot-store.js';
import { historyFileFor, historyStoreFor } from '../../../src/io/history/history-file.js';
import { LazyHistory } from '../../../src/io/history/lazy-history.js';
import { openHistory } from '../../../src/io/history/open-history.js';
import { runTool } from '../../../src/mcp/server.js';
import { createEngine, type Engine, type EngineOptions } from '../../../src/tools/engine.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { callContext } from '../../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
let state: string | undefined;
const stores: HistoryStore[] = [];
afterEach(async () => {
  for (const h of stores.splice(0)) await h.close();
  await sb?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
  sb = undefined;
  state = undefined;
});

async function engineOn(files: Record<string, string>, options: EngineOptions = {}): Promise<Engine> {
  sb ??= await makeSandbox(files);
  state ??= mkdtempSync(path.join(os.tmpdir(), 'hl-lazy-state-'));
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] });
  const e = await createEngine(config, { stateDir: state, sweepLocks: false, ...options });
  stores.push(e.history);
  return e;
}

const structured = (r: { structuredContent?: unknown }) => r.structuredContent as Record<string, any>;

test('the engine builds its SQLite store on the first call that records, and says the same before and after', async () => {
  const e = await engineOn({ 'a.txt': 'one\n' });
  const lazy = e.history as LazyHistory;
  assert.ok(lazy instanceof LazyHistory);
  const file = historyStoreFor(e.guard.realRoot, state);
  const before = e.history.status();
  assert.deepEqual(before, { backend: 'sqlite', durable: true, location: file });
  // reading the limits, flushing and a call that records nothing build nothing
  assert.equal(e.history.limits.maxPaths > 0, true);
  await e.history.flush();
  assert.equal(lazy.opened, false);
  assert.equal(existsSync(path.join(state!, 'hashline')), false, 'nothing made in the state directory yet');

  const read = await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, callContext());
  assert.equal(read.isError, undefined);
  assert.equal(lazy.opened, true);
  assert.equal(existsSync(file), true, 'the first read recorded into the store');
  assert.deepEqual(e.history.status(), before);
  assert.equal(e.history.limits, lazy.live.limits);
  // a second engine of the same root (another process) sees the version the first recorded
  const other = await engineOn({});
  const real = path.join(e.guard.realRoot, 'a.txt');
  assert.deepEqual(other.history.versions(real).map((v) => v.text), ['one\n']);
});

test('two first uses at once build the store once: the migration of the 0.1 history runs and is reported once', async () => {
  const reports: string[] = [];
  const e = await engineOn({ 'a.txt': 'new a\n', 'b.txt': 'new b\n' }, { report: (m) => reports.push(m) });
  const realRoot = e.guard.realRoot;
  const json = historyFileFor(realRoot, state);
  mkdirSync(path.dirname(json), { recursive: true });
  writeFileSync(json, JSON.stringify({ format: 1, root: realRoot, state: { paths: [{ path: path.join(realRoot, 'a.txt'), versions: [{ text: 'old a\n', seen: [1] }] }] } }));
  const [ra, rb] = await Promise.all([
    runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, callContext()),
    runTool(e, fsReadTool, { targets: [{ path: 'b.txt' }] }, callContext()),
  ]);
  assert.equal(ra.isError, undefined);
  assert.equal(rb.isError, undefined);
  assert.deepEqual(reports.filter((r) => r.startsWith('migrated ')).length, 1, reports.join('\n'));
  assert.equal(existsSync(`${json}.migrated`), true);
  assert.deepEqual(e.history.versions(path.join(realRoot, 'a.txt')).map((v) => v.text), ['old a\n', 'new a\n']);
  assert.deepEqual(e.history.versions(path.join(realRoot, 'b.txt')).map((v) => v.text), ['new b\n']);

  // the same with a counting opener: concurrent first uses of every kind build one store
  let built = 0;
  const lazy = new LazyHistory(() => (built++, new SnapshotStore()), new SnapshotStore().limits, { backend: 'memory', durable: false });
  await Promise.all([lazy.load(['/x']), Promise.resolve().then(() => lazy.record('/x', 'x\n')), Promise.resolve().then(() => lazy.versions('/y'))]);
  assert.equal(built, 1);
});

test('close() before any use builds nothing and makes nothing', async () => {
  sb = await makeSandbox({});
  state = mkdtempSync(path.join(os.tmpdir(), 'hl-lazy-state-'));
  const h = await openHistory(DEFAULT_HISTORY, { realRoot: sb.root, stateDir: state, lazy: true, background: false });
  assert.ok(h instanceof LazyHistory);
  await h.flush();
  await h.close();
  assert.equal(h.opened, false);
  assert.deepEqual(readdirSync(state), []);
  // without `lazy` the store is built now (benches and scripts that open a store themselves)
  const now = await openHistory(DEFAULT_HISTORY, { realRoot: sb.root, stateDir: state, background: false });
  stores.push(now);
  assert.equal(now instanceof LazyHistory, false);
});

test('a store that fails when it is built is reported once, and the tools go on in memory', async () => {
  // the state directory's `hashline` is a file: the store cannot be made there
  state = mkdtempSync(path.join(os.tmpdir(), 'hl-lazy-state-'));
  writeFileSync(path.join(state, 'hashline'), 'not a directory\n');
  const reports: string[] = [];
  const e = await engineOn({ 'a.txt': 'one\n' }, { report: (m) => reports.push(m) });
  assert.deepEqual(reports, [], 'nothing to report before the first use');
  assert.equal(e.history.status().durable, true);
  const read = await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, callContext());
  assert.equal(read.isError, undefined);
  const edit = await runTool(e, fsEditTool, { targets: [{ path: 'a.txt', file_hash: structured(read).results[0].file_hash, ops: 'replace 1:\n+ONE' }] }, callContext());
  assert.equal(edit.isError, undefined, JSON.stringify(edit.content));
  await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, callContext());
  assert.equal(reports.length, 1, reports.join('\n'));
  assert.match(reports[0]!, /^history store .* failed \(.*\); this process goes on with an in-memory history$/);
  const status = e.history.status();
  assert.equal(status.durable, false);
  assert.equal(status.warning, reports[0]);
});

test('a fallback decided at start is the same as before: a state directory inside the root is reported at start', async () => {
  sb = await makeSandbox({ 'a.txt': 'x\n' });
  const reports: string[] = [];
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] });
  const e = await createEngine(config, { stateDir: path.join(sb.root, '.state'), sweepLocks: false, report: (m) => reports.push(m) });
  stores.push(e.history);
  assert.equal(e.history instanceof LazyHistory, false);
  assert.equal(e.history.status().backend, 'memory');
  assert.equal(reports.length, 1);
  assert.equal(e.history.status().warning, reports[0]);
});

test('a read served over MCP commits through the lazy store right after its reply (flushSoon), a change before it', async () => {
  const e = await engineOn({ 'a.txt': 'one\n' });
  const other = await engineOn({}); // another process of the same root, made before the calls
  const real = path.join(e.guard.realRoot, 'a.txt');
  const read = await runTool(e, fsReadTool, { targets: [{ path: 'a.txt' }] }, callContext(), { commitReadsAfterReply: true });
  assert.equal(read.isError, undefined);
  assert.deepEqual(other.history.versions(real).map((v) => v.text), [], 'the sighting is not committed before the reply');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(other.history.versions(real).map((v) => v.text), ['one\n'], 'committed in the same turn, after the reply');
  const edit = await runTool(e, fsEditTool, { targets: [{ path: 'a.txt', file_hash: structured(read).results[0].file_hash, ops: 'replace 1:\n+ONE' }] }, callContext(), { commitReadsAfterReply: true });
  assert.equal(edit.isError, undefined, JSON.stringify(edit.content));
  assert.deepEqual(other.history.versions(real).map((v) => v.text), ['one\n', 'ONE\n'], 'a change is committed before its reply');
});
