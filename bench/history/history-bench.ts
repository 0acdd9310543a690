// `npm run bench:history`: what the durable history costs.
// 1. fs_edit p50 over MCP stdio (a 3-hunk edit of a 2,000-line file) with the SQLite history
//    against the same server with `--history memory`, alternated A B A B (goal: ≤ 1.25×).
// 2. The commit cost in process: recording a new 2,000-line version (hash, encode, insert, commit)
//    and marking its lines seen, against the in-memory history; the commit also on better-sqlite3
//    (the same runner and SQL) when it is installed (better-sqlite3.ts says where it is looked for).
// 3. 100,000 versions across 1,000 files (plus one file with 1,000 versions): the store's size and
//    the query times the console and the CLI need (feed page, cursor, timelines, content, the change
//    probe, a cold window load, retention).
// Prints a table of figures; BENCH_HISTORY_VERSIONS=N scales part 3 down for a quick look, and
// BENCH_HISTORY_PARTS=edit,commit,scale picks the parts.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_HISTORY } from '../../src/core/history/history-settings.js';
import type { HistoryStore } from '../../src/core/history/history-store.js';
import { SnapshotStore } from '../../src/core/history/snapshot-store.js';
import { DurableHistory } from '../../src/io/history/durable-history.js';
import { openHistory } from '../../src/io/history/open-history.js';
import { linesText } from '../lib/fixtures.js';
import { loadBetterSqlite3 } from './better-sqlite3.js';
import { connectStdio, okText, type McpSide } from '../lib/mcp.js';
import { alternate, median, percentile } from '../lib/stats.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(REPO, 'src/cli/main.ts');
const out: Array<[string, string]> = [];
const figure = (name: string, value: string) => {
  out.push([name, value]);
  process.stderr.write(`  ${name}: ${value}\n`);
};
const ms = (x: number) => `${x.toFixed(3)} ms`;

function tagOf(r: CallToolResult): string {
  okText(r);
  return (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
}

async function editBench(work: string): Promise<void> {
  const reps = Number(process.env.BENCH_HISTORY_EDITS ?? 200);
  const sides: Record<'sqlite' | 'memory', { side: McpSide; tag: string; n: number }> = {} as never;
  for (const kind of ['sqlite', 'memory'] as const) {
    const root = path.join(work, `edit-${kind}`);
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'f.txt'), linesText(2000));
    const side = await connectStdio(process.execPath, ['--import', 'tsx', CLI, 'mcp', '--root', root, '--history', kind], REPO);
    const tag = tagOf(await side.call('fs_read', { targets: [{ path: 'f.txt', line_range: '1-1' }] }));
    sides[kind] = { side, tag, n: 0 };
  }
  const editOnce = async (kind: 'sqlite' | 'memory') => {
    const s = sides[kind];
    const n = ++s.n;
    const ops = [10, 1000, 1990].map((l) => `replace ${l}:\n+edited ${kind} ${n} at ${l}`).join('\n');
    const t = performance.now();
    const r = await s.side.call('fs_edit', { targets: [{ path: 'f.txt', file_hash: s.tag, ops }] });
    const dt = performance.now() - t;
    s.tag = tagOf(r);
    return dt;
  };
  const { a, b } = await alternate(reps, () => editOnce('sqlite'), () => editOnce('memory'), 20);
  figure('fs_edit p50, SQLite history', ms(median(a)));
  figure('fs_edit p50, --history memory', ms(median(b)));
  figure('fs_edit p50 ratio SQLite / memory (goal ≤ 1.25×)', `${(median(a) / median(b)).toFixed(2)}×`);
  figure('fs_edit p95, SQLite / memory', `${ms(percentile(a, 95))} / ${ms(percentile(b, 95))}`);
  for (const s of Object.values(sides)) await s.side.close();
}

function timeEach(n: number, fn: (i: number) => void): number[] {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    times.push(performance.now() - t);
  }
  return times;
}

async function timeEachAsync(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return times;
}

async function commitBench(work: string): Promise<void> {
  const state = path.join(work, 'commit-state');
  const durable = await openHistory(DEFAULT_HISTORY, { realRoot: '/bench/commit', stateDir: state, background: false });
  // the same store, SQL and runner on better-sqlite3, when it is installed (it is no dependency)
  const better = loadBetterSqlite3();
  const beside = 'error' in better
    ? undefined
    : await openHistory(DEFAULT_HISTORY, { realRoot: '/bench/commit', stateDir: path.join(work, 'commit-state-better'), background: false, loadSqlite: () => better });
  const memory = new SnapshotStore();
  const base = linesText(2000);
  const lines = Array.from({ length: 2000 }, (_, i) => i + 1);
  // what an edit records: the new version, its seen lines, then the call's one commit (flush)
  const run = (h: HistoryStore, label: string) => {
    const rec: number[] = [];
    const commit: number[] = [];
    for (let i = 0; i < 300; i++) {
      const text = `${base}version ${label} ${i}\n`;
      const t0 = performance.now();
      h.record('/bench/commit/f.txt', text, { kind: 'made' });
      h.markSeen('/bench/commit/f.txt', text, lines);
      const t1 = performance.now();
      if (h instanceof DurableHistory) h.flushSync();
      const t2 = performance.now();
      rec.push(t1 - t0);
      commit.push(t2 - t1);
    }
    return { rec: median(rec.slice(20)), commit: median(commit.slice(20)) };
  };
  run(durable, 'warm');
  if (beside) run(beside, 'warm');
  // alternated, so that both meet the same load of the machine
  const d = run(durable, 'd');
  const b = beside ? run(beside, 'b') : undefined;
  const d2 = run(durable, 'd2');
  const b2 = beside ? run(beside, 'b2') : undefined;
  const m = run(memory, 'm');
  const both = (x: number, y: number) => (x + y) / 2;
  figure('record a new 2,000-line version and its seen lines, SQLite p50 (hash, encode, queue)', ms(both(d.rec, d2.rec)));
  figure('the same, memory p50', ms(m.rec));
  figure('commit of that call (one transaction, synchronous=NORMAL), node:sqlite p50', ms(both(d.commit, d2.commit)));
  figure(
    'the same commit on better-sqlite3 (same SQL and runner), p50',
    b && b2 ? ms(both(b.commit, b2.commit)) : `not measured: better-sqlite3 unavailable (${(better as { error: string }).error})`,
  );
  await durable.close();
  await beside?.close();
}

function fileText(f: number, v: number): string {
  const rows: string[] = [];
  for (let i = 0; i < 40; i++) rows.push(`// file ${f} line ${i}: ${i === v % 40 ? `changed in version ${v}` : 'export const value = compute(input, options);'}`);
  return `${rows.join('\n')}\n`;
}

async function scaleBench(work: string): Promise<void> {
  const total = Number(process.env.BENCH_HISTORY_VERSIONS ?? 100_000);
  const files = Math.max(1, Math.round(total / 100));
  const perFile = Math.round(total / files);
  const state = path.join(work, 'scale-state');
  const root = '/bench/scale';
  const h = (await openHistory(DEFAULT_HISTORY, { realRoot: root, stateDir: state, background: false })) as DurableHistory;
  const origin = { tool: 'fs_edit', client: 'bench', batch: 'b' };
  const t0 = performance.now();
  // one commit per version, as one edit call per version would make
  for (let v = 0; v < perFile; v++) {
    for (let f = 0; f < files; f++) {
      h.record(`${root}/src/f${f}.ts`, fileText(f, v), { kind: 'made', origin: { ...origin, batch: `b${v}` } });
      h.flushSync();
    }
  }
  const long = `${root}/src/long.ts`;
  for (let v = 0; v < 1000; v++) {
    h.record(long, fileText(-1, v), { kind: 'made', origin });
    h.flushSync();
  }
  const fillMs = performance.now() - t0;
  const q = h.query!;
  const stats = await q.stats();
  figure(`versions recorded (${files} files × ${perFile} + 1 file × 1,000)`, `${stats.entries} in ${(fillMs / 1000).toFixed(1)} s (${((fillMs / stats.entries) * 1000).toFixed(0)} µs each)`);
  figure('store size on disk (file + WAL)', `${((stats.fileBytes ?? 0) / 1048576).toFixed(1)} MiB; distinct contents ${stats.blobs}, ${(stats.blobBytes / 1048576).toFixed(1)} MiB`);
  const newest = (await q.feed({ limit: 1 }))[0]!.id;
  const p50 = async (label: string, n: number, fn: (i: number) => Promise<unknown>) => figure(label, ms(median(await timeEachAsync(n, fn))));
  await p50('feed: newest 100 entries, p50', 50, () => q.feed({ limit: 100 }));
  await p50('feed: 100 entries after a cursor, p50', 50, (i) => q.feed({ after: newest - 5000 - i, limit: 100 }));
  await p50('feed filtered by client and tool, newest 100, p50', 50, () => q.feed({ limit: 100, client: 'bench', tool: 'fs_edit' }));
  await p50('feed filtered by a directory prefix, newest 100, p50', 50, () => q.feed({ limit: 100, path: `${root}/src/` }));
  await p50('timeline of one file (100 versions), p50', 50, (i) => q.timeline(`${root}/src/f${i % files}.ts`, { limit: 1000 }));
  await p50('timeline of a file with 1,000 versions, p50', 20, () => q.timeline(long, { limit: 1000 }));
  await p50('content of one version by id, p50', 200, (i) => q.content(newest - i * 37));
  await p50('change probe (data_version), p50', 1000, () => q.changeStamp());
  await h.close();
  // a new process: its first question about a file loads the window (10 versions) from the file
  const cold = await openHistory(DEFAULT_HISTORY, { realRoot: root, stateDir: state, background: false });
  // the 49 most recently changed files are in the window the tools see: their first versions() loads 10 versions
  const recent = Array.from({ length: Math.min(49, files) }, (_, i) => `${root}/src/f${files - 1 - i}.ts`);
  figure('cold window load of one file (first versions() in a process: 10 versions), p50', ms(median(timeEach(recent.length, (i) => cold.versions(recent[i]!)))));
  if (cold.versions(recent[0]!).length !== 10) throw new Error('the window of a recent file should hold 10 versions');
  const t1 = performance.now();
  const removed = await cold.query!.maintain();
  figure('retention pass with nothing to remove (defaults)', `${ms(performance.now() - t1)} (${removed} removed)`);
  await cold.close();
}

const work = mkdtempSync(path.join(os.tmpdir(), 'hashline-bench-history-'));
process.env.XDG_STATE_HOME = path.join(work, 'xdg');
try {
  process.stderr.write(`bench:history on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}\n`);
  const parts = (process.env.BENCH_HISTORY_PARTS ?? 'edit,commit,scale').split(',');
  if (parts.includes('edit')) await editBench(work);
  if (parts.includes('commit')) await commitBench(work);
  if (parts.includes('scale')) await scaleBench(work);
  process.stdout.write(`\n| figure | value |\n|---|---|\n${out.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
