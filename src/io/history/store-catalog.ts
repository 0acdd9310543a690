// The SQLite stores under the state directory, seen from outside any one project (`hashline history
// --stores | --prune | --forget`): each store file (history-<hash>.sqlite) is opened through the
// engine's own runner (open-history.ts) to read the project it records, prune it with the store's
// retention (history-queries.ts), or remove it. Nothing outside the state directory is touched.

import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { applyRetention, storeSummary, type Retention, type StoreSummary } from './history-queries.js';
import { stateDirFor } from './history-file.js';
import { openStoreRunner } from './open-history.js';
import type { Runner } from './runner.js';

const STORE_NAME = /^history-[0-9a-f]{16}\.sqlite$/;

export interface StoreInfo extends StoreSummary {
  readonly file: string;
  /** Bytes of the store and its write-ahead log. */
  readonly bytes: number;
}

/** The store files of the state directory, by name. */
export function storeFiles(stateDir?: string): string[] {
  const dir = stateDirFor(stateDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => STORE_NAME.test(n)).sort().map((n) => path.join(dir, n));
}

/** The store's file and its companions (-wal, -shm, a check marker, the 0.1 JSON history it came from). */
export function storeCompanions(file: string): string[] {
  const json = file.replace(/\.sqlite$/, '.json');
  return [file, `${file}-wal`, `${file}-shm`, `${file}.check`, json, `${json}.migrated`].filter((f) => sizeOf(f) !== undefined);
}

function sizeOf(file: string): number | undefined {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

export function storeBytes(file: string): number {
  return (sizeOf(file) ?? 0) + (sizeOf(`${file}-wal`) ?? 0);
}

async function withRunner<T>(file: string, use: (runner: Runner) => Promise<T>): Promise<T> {
  const runner = openStoreRunner(file);
  if ('error' in runner) throw new Error(runner.error);
  try {
    return await use(runner);
  } finally {
    await runner.close();
  }
}

/** What one store holds. */
export function readStore(file: string): Promise<StoreInfo> {
  return withRunner(file, async (runner) => ({ file, ...(await runner.run(() => storeSummary(), false)), bytes: storeBytes(file) }));
}

/** Applies `retention` to every root of the store; returns the log entries removed. */
export function pruneStore(file: string, retention: Retention, now = Date.now()): Promise<number> {
  return withRunner(file, async (runner) => {
    const { roots } = await runner.run(() => storeSummary(), false);
    let removed = 0;
    for (const root of roots) removed += await runner.run(() => applyRetention(root.id, retention, now), true);
    return removed;
  });
}

/** Removes the store's files (storeCompanions); returns them. */
export function removeStore(file: string): string[] {
  const files = storeCompanions(file);
  for (const f of files) rmSync(f, { force: true });
  return files;
}
