// Chooses and opens the history a root's engine records into (`--history`, `[history]`):
// - `sqlite` (default): one file per root under the user's state directory, never inside the root;
//   when node:sqlite is not in this Node, or the state directory is inside the root, the
//   in-memory history with a one-line warning (on stderr and in `status()`), never a failed start;
// - `postgres`: the fleet store; when it cannot be reached at start, the in-memory history with a warning;
// - `memory`: the in-process window of the seed; `off`: nothing kept.
// A durable store migrates 0.1's JSON history file of the root on first use (then renamed `.migrated`)
// and applies retention in the background (a minute after it opens, then hourly).
// With `lazy` (the engine's choice) the SQLite store is built on its first use (lazy-history.ts); every
// fallback above is still decided here, at start, so what a start reports about the history stays true.

import { realpathSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistoryOrigin, HistoryStore } from '../../core/history/history-store.js';
import type { HistorySettings } from '../../core/history/history-settings.js';
import { DEFAULT_LIMITS, SnapshotStore } from '../../core/history/snapshot-store.js';
import { NullHistory } from '../../core/history/null-history.js';
import { isWithin } from '../../core/config/path-policy.js';
import { redactText, redactUrl } from '../../core/history/redact-url.js';
import { historyFileFor, historyStoreFor, readLegacyHistory } from './history-file.js';
import { DurableHistory, newBatchId, type Runner } from './durable-history.js';
import type { Retention } from './history-queries.js';
import { LazyHistory } from './lazy-history.js';
import { loadSqliteModule, type SqliteModule } from './node-sqlite.js';
import { SqliteRunner } from './sqlite-runner.js';

export interface OpenHistoryOptions {
  readonly realRoot: string;
  /** The state directory's parent (default $XDG_STATE_HOME, else ~/.local/state). */
  readonly stateDir?: string | undefined;
  /** Where one-line reports go (default: stderr). */
  readonly report?: (message: string) => void;
  /** Loads node:sqlite (tests inject a failing loader). */
  readonly loadSqlite?: () => SqliteModule | { error: string };
  /** Runs retention in the background (default true). */
  readonly background?: boolean;
  /** Builds the SQLite store on its first use instead of now (default false). */
  readonly lazy?: boolean;
  /** `fsync` durability: SQLite commits with synchronous=FULL (default NORMAL: survives a process crash). */
  readonly durable?: boolean;
}

const stderrReport = (message: string): void => {
  process.stderr.write(`hashline: ${message}\n`);
};

export function retentionOf(s: HistorySettings): Retention {
  return { maxAgeMs: s.maxAgeDays * 86_400_000, maxVersionsPerFile: s.maxVersionsPerFile, maxBytes: s.maxBytes };
}

/** Imports 0.1's JSON history of the root, then renames the file so that it is imported once. */
function migrator(realRoot: string, stateDir: string | undefined, report: (m: string) => void): (h: DurableHistory) => void {
  return (h) => {
    const file = historyFileFor(realRoot, stateDir);
    const legacy = readLegacyHistory(file, realRoot, report);
    if (legacy === undefined) return;
    const origin: HistoryOrigin = { tool: 'migration', client: 'migration', batch: newBatchId() };
    let n = 0;
    for (const { path, versions } of legacy.exportState().paths) {
      for (const v of versions) {
        h.recordMigrated(path, v.text, v.seen, origin);
        n++;
      }
    }
    if (h.failed) return;
    try {
      renameSync(file, `${file}.migrated`);
    } catch {
      // imported again next time: each text is already a version, so nothing is added twice to the window
    }
    report(`migrated ${n} versions from ${file} into the history store`);
  };
}

/** `p` with its nearest existing ancestor resolved through links (where it would really be made). */
function realPlace(p: string): string {
  const rest: string[] = [];
  for (let cur = p; ; ) {
    try {
      return path.join(realpathSync(cur), ...rest.reverse());
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return p;
      rest.push(path.basename(cur));
      cur = up;
    }
  }
}

function scheduleRetention(history: DurableHistory, report: (m: string) => void): void {
  let warned = false;
  const run = () => {
    history.query.maintain().catch((e: unknown) => {
      if (!warned) report(`history retention failed: ${(e as Error).message}`);
      warned = true;
    });
  };
  setTimeout(run, 60_000).unref();
  setInterval(run, 3_600_000).unref();
}

/**
 * The runner of one existing SQLite store file, for `hashline history --stores | --prune | --forget`
 * (store-catalog.ts): the same store code the engine uses, whichever SQLite module backs it.
 */
export function openStoreRunner(file: string, report: (message: string) => void = stderrReport): Runner | { error: string } {
  const module = loadSqliteModule();
  if ('error' in module) return { error: `SQLite history unavailable (${module.error})` };
  return new SqliteRunner(file, module, report, false);
}

export async function openHistory(settings: HistorySettings, options: OpenHistoryOptions): Promise<HistoryStore> {
  const report = options.report ?? stderrReport;
  const limits = { ...DEFAULT_LIMITS, maxStoredBytes: settings.maxVersionBytes };
  const memory = (warning: string): HistoryStore => {
    report(warning);
    return new SnapshotStore({}, warning);
  };
  if (settings.store === 'off') return new NullHistory();
  if (settings.store === 'memory') return new SnapshotStore();
  const durable = (runner: Runner, rootName: string): DurableHistory => {
    const h = new DurableHistory(runner, {
      rootName,
      limits,
      retention: retentionOf(settings),
      report,
      onOpen: migrator(options.realRoot, options.stateDir, report),
    });
    if (options.background !== false) scheduleRetention(h, report);
    return h;
  };
  if (settings.store === 'postgres') {
    const { PgRunner } = await import('./pg-runner.js');
    try {
      const runner = await PgRunner.connect(settings.url!);
      const h = durable(runner, `${os.hostname()}:${options.realRoot}`);
      await h.open();
      await h.flush();
      return h;
    } catch (e) {
      const url = settings.url!;
      return memory(redactText(`history store ${redactUrl(url)} cannot be used (${(e as Error).message}); using the in-memory history`, url));
    }
  }
  const file = historyStoreFor(options.realRoot, options.stateDir);
  if (isWithin(file, options.realRoot) || isWithin(realPlace(file), options.realRoot)) {
    return memory(`history store ${file} would be inside the project; using the in-memory history (set XDG_STATE_HOME elsewhere)`);
  }
  const module = (options.loadSqlite ?? loadSqliteModule)();
  if ('error' in module) return memory(`SQLite history unavailable (${module.error}); using the in-memory history`);
  const open = () => durable(new SqliteRunner(file, module, report, options.durable === true), options.realRoot);
  // what a new DurableHistory over this file answers, until a failure of the database itself
  return options.lazy ? new LazyHistory(open, limits, { backend: 'sqlite', durable: true, location: file }) : open();
}
