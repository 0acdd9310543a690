// Floors measured in the bench process beside a pair: one replace of a file as hashline's writer
// does it in the server's durability mode (`atomic`, the default: temporary file, write, rename;
// `fsync` adds the file's and the directory's flushes), one history commit (one SQLite transaction
// storing a blob of the same size, with the store's pragmas: WAL, synchronous=NORMAL), and the
// replay of recorded replies by a bare SDK server (replay-server.mjs).

import { closeSync, fsync, fsyncSync, mkdirSync, open, openSync, rename, renameSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadSqliteModule, type SqliteConnection } from '../../src/io/history/node-sqlite.js';
import { connectStdio, okText, type McpSide } from './mcp.js';

/** What the bench's servers run with (hashline's default), and so what the floors do. */
export type FloorDurability = 'atomic' | 'fsync';

/** Replaces `file` by `bytes` as hashline's writer does in `mode`; returns the ms it took. */
export function replaceFloorMs(file: string, bytes: Uint8Array, mode: FloorDurability = 'atomic'): number {
  const t = performance.now();
  const tmp = `${file}.floor-tmp`;
  const fd = openSync(tmp, 'wx', 0o644);
  writeSync(fd, bytes);
  if (mode === 'fsync') fsyncSync(fd);
  closeSync(fd);
  renameSync(tmp, file);
  if (mode === 'fsync') {
    const d = openSync(path.dirname(file), 'r');
    fsyncSync(d);
    closeSync(d);
  }
  return performance.now() - t;
}

/**
 * One SQLite store (node:sqlite) in WAL mode, as the history store opens it: synchronous=NORMAL in
 * `atomic` mode, FULL in `fsync` mode.
 */
export class HistoryCommitFloor {
  private readonly db: SqliteConnection;
  private n = 0;
  constructor(work: string, mode: FloorDurability = 'atomic') {
    mkdirSync(work, { recursive: true });
    const sqlite = loadSqliteModule();
    if ('error' in sqlite) throw new Error(sqlite.error);
    this.db = sqlite.open(path.join(work, `floor-history-${mode}.sqlite`));
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec(`PRAGMA synchronous = ${mode === 'fsync' ? 'FULL' : 'NORMAL'}`);
    this.db.exec('CREATE TABLE IF NOT EXISTS blobs (sha TEXT PRIMARY KEY, data BLOB NOT NULL)');
    this.db.exec('CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY AUTOINCREMENT, sha TEXT NOT NULL, time INTEGER NOT NULL)');
    this.db.exec('DELETE FROM blobs; DELETE FROM log');
  }

  /** ms of one transaction storing `bytes` as a new blob and one log row. */
  commitMs(bytes: Uint8Array): number {
    const key = `floor-${process.pid}-${this.n++}`;
    const blob = this.db.prepare('INSERT INTO blobs (sha, data) VALUES (?, ?)');
    const log = this.db.prepare('INSERT INTO log (sha, time) VALUES (?, ?)');
    const t = performance.now();
    this.db.exec('BEGIN IMMEDIATE');
    blob.all(key, bytes);
    log.all(key, Date.now());
    this.db.exec('COMMIT');
    return performance.now() - t;
  }

  close(): void {
    this.db.close();
  }
}

/** A bare SDK server replaying `replies` (recorded CallToolResults), one per index. */
export interface Replay {
  /** ms of one call replaying reply `i`. */
  callMs(i?: number): Promise<number>;
  close(): Promise<void>;
}

export async function startReplay(repo: string, work: string, name: string, replies: readonly CallToolResult[]): Promise<Replay> {
  mkdirSync(work, { recursive: true });
  const files = replies.map((r, i) => {
    const f = path.join(work, `${name}-reply-${i}.json`);
    writeFileSync(f, JSON.stringify(r));
    return f;
  });
  const side: McpSide = await connectStdio(process.execPath, [fileURLToPath(new URL('./replay-server.mjs', import.meta.url)), ...files], repo);
  return {
    async callMs(i = 0) {
      const t = performance.now();
      okText(await side.call('replay', { i }));
      return performance.now() - t;
    },
    close: () => side.close(),
  };
}

const fsyncP = (fd: number) => new Promise<void>((res, rej) => fsync(fd, (e) => (e ? rej(e) : res())));
const createP = (file: string) => new Promise<number>((res, rej) => open(file, 'wx', 0o644, (e, fd) => (e ? rej(e) : res(fd))));
const renameP = (from: string, to: string) => new Promise<void>((res, rej) => rename(from, to, (e) => (e ? rej(e) : res())));

async function each<T>(items: readonly T[], fn: (item: T) => Promise<void>, width = 32): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

/**
 * The floor of writing many files in `mode`: ms to create the missing directories, then write each
 * file as a temporary file and rename it; `fsync` also flushes the files concurrently before the
 * renames and each directory once after them (what a write that must survive power loss needs).
 */
export async function treeWriteFloorMs(items: ReadonlyArray<{ target: string; data: Uint8Array }>, mode: FloorDurability = 'atomic'): Promise<number> {
  const work = items.map((it) => ({ ...it, temp: `${it.target}.floor-tmp`, fd: -1 }));
  const dirs = [...new Set(items.map((it) => path.dirname(it.target)))];
  const start = performance.now();
  for (const d of dirs) mkdirSync(d, { recursive: true });
  await each(work, async (it) => {
    it.fd = await createP(it.temp);
    writeSync(it.fd, it.data);
  });
  await each(work, async (it) => {
    if (mode === 'fsync') await fsyncP(it.fd);
    closeSync(it.fd);
  });
  await each(work, (it) => renameP(it.temp, it.target));
  if (mode === 'fsync') await each(dirs, async (dir) => {
    const fd = openSync(dir, 'r');
    await fsyncP(fd);
    closeSync(fd);
  });
  return performance.now() - start;
}
