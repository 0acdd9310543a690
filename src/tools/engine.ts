// The engine every face shares: one guard, one lock manager, one history (durable by default,
// built on first use: see io/history/open-history.ts), and the configuration in force. Built once from a validated configuration; tools receive it with each
// call. When the configuration file changes, the next call sees the new generation: its guard
// lists are applied by building a new guard (the command line's lists always stay).

import { mergeLists, type EngineConfig } from '../core/config/config.js';
import { withOrigin } from '../core/history/bound-history.js';
import type { HistoryOrigin, HistoryStore } from '../core/history/history-store.js';
import { EditJournal } from '../core/merge/edit-journal.js';
import { ReceiptBook } from '../core/receipt-book.js';
import { ConfigSource, DEFAULT_CONFIG_NAME, type ConfigState } from '../io/guard/config-file.js';
import { LockManager } from '../io/locks/file-lock.js';
import { openHistory } from '../io/history/open-history.js';
import type { SqliteModule } from '../io/history/node-sqlite.js';
import { PathGuard } from '../io/guard/path-guard.js';
import { SqlValidator } from '../io/sql/sql-worker.js';
import path from 'node:path';
import { HashlineError } from '../core/errors/errors.js';

export interface Engine {
  readonly config: EngineConfig;
  /** The guard of the configuration generation in force. */
  readonly guard: PathGuard;
  readonly locks: LockManager;
  /** Keyed by real absolute path. */
  readonly history: HistoryStore;
  /** file_patch's preview receipts, for every session this engine serves. */
  readonly receipts: ReceiptBook;
  /** The line maps of the edits each session made (fs_edit), for its own stale edits: one journal for every session. */
  readonly journal: EditJournal;
  /** The configuration in force, as last refreshed. */
  configState(): ConfigState;
  /** Looks at the configuration file (one stat), reloads it when it changed, and returns what is in force. */
  refreshConfig(): Promise<ConfigState>;
  /**
   * The same look at the configuration file, synchronously: true when the guard in force is the
   * one of the current generation; false when a rebuild is due (then `refreshConfig` makes it).
   */
  refreshConfigSync(): boolean;
  /** SQL candidate validation: one validator, made on first use (its worker starts with the first request). */
  readonly sql?: SqlValidator;
  /**
   * Replaces the roots (an MCP client's `roots/list_changed`): the first is where relative paths
   * resolve; absolute paths inside any of them are admitted. Applies from the next call.
   */
  setRoots(roots: readonly string[]): Promise<void>;
}

export interface EngineOptions {
  /** The parent of hashline's state directory, where a durable history is kept (default $XDG_STATE_HOME, else ~/.local/state). */
  stateDir?: string;
  /** Loads node:sqlite (tests inject a failing loader). */
  loadSqlite?: () => SqliteModule | { error: string };
  /** Where the history's one-line reports go (default: stderr). */
  report?: (message: string) => void;
  /** The operator's configuration file; default: fixed settings from the engine configuration. */
  configSource?: ConfigSource;
  /** Files no tool may read or change (the server's token file). */
  seal?: readonly string[];
  /** The clock of time-bound state (preview receipts); tests inject one. */
  clock?: () => number;
  /** Sweep dead lock files under the root at start (default true; a one-shot command skips it). */
  sweepLocks?: boolean;
}

export async function createEngine(config: EngineConfig, options: EngineOptions = {}): Promise<Engine> {
  const source = options.configSource ?? ConfigSource.fixed();
  let roots: readonly string[] = [config.root, ...(config.roots ?? [])];
  // The configuration file in use and the default one at each root are the operator's: no tool may change them.
  const protect = () => [...roots.map((r) => path.join(r, DEFAULT_CONFIG_NAME)), ...(source.location ? [source.location.path] : [])];
  const guardFor = (state: ConfigState) =>
    PathGuard.create({ root: roots[0]!, roots: roots.slice(1), ...mergeLists(config.cliLists, state.settings.lists), protect: protect(), seal: options.seal });
  // The first generation's lists are already merged into `config` (the command line's and the file's).
  let guard = await PathGuard.create({ ...config, roots: roots.slice(1), protect: protect(), seal: options.seal });
  let guardGeneration = source.current.generation;
  /** Bumped by every rebuild of the guard, so a slower, older rebuild never replaces a newer one. */
  let builds = 0;
  // the store itself is built on its first use, so a server answers its first messages without it
  const history = await openHistory(config.history, {
    realRoot: guard.realRoot,
    lazy: true,
    stateDir: options.stateDir,
    ...(options.loadSqlite ? { loadSqlite: options.loadSqlite } : {}),
    ...(options.report ? { report: options.report } : {}),
  });
  const locks = new LockManager({ root: guard.realRoot, display: (abs) => guard.display(abs) });
  // A writer killed mid-write leaves its lock and a temporary file beside the file. The sweep
  // clears them under the root in slices (io/locks/lock-sweep.ts) while the engine serves:
  // the first slice runs before this returns (a small tree is swept whole), and a dead lock not
  // reached yet is taken over by the first writer that meets it.
  if (options.sweepLocks !== false) void locks.recoverStale().catch(() => 0);
  let sql: SqlValidator | undefined;
  const engine: Engine = {
    config,
    get sql() {
      return (sql ??= new SqlValidator());
    },
    get guard() {
      return guard;
    },
    locks,
    history,
    receipts: new ReceiptBook({ now: options.clock ?? Date.now }),
    journal: new EditJournal(),
    configState: () => source.current,
    async refreshConfig() {
      const state = source.refresh();
      if (state.generation !== guardGeneration) {
        const generation = state.generation;
        const build = ++builds;
        const next = await guardFor(state);
        if (generation > guardGeneration && build === builds) {
          guard = next;
          guardGeneration = generation;
        }
      }
      return source.current;
    },
    refreshConfigSync() {
      return source.refresh().generation === guardGeneration;
    },
    async setRoots(next) {
      if (next.length === 0) throw new HashlineError('invalid_arguments', 'at least one root is needed');
      const previous = roots;
      roots = [...next];
      const build = ++builds;
      try {
        const state = source.current;
        const built = await guardFor(state);
        if (build === builds) {
          guard = built;
          guardGeneration = state.generation;
        }
      } catch (e) {
        roots = previous;
        throw e;
      }
    },
  };
  return Object.freeze(engine);
}

/** The engine as one call sees it: its history records carry the call's origin (tool, client, batch). */
export function engineForCall(engine: Engine, origin: HistoryOrigin): Engine {
  return Object.freeze(Object.create(engine, { history: { value: withOrigin(engine.history, origin), enumerable: true } }) as Engine);
}
