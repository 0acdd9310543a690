// The engine every face shares: one guard, one lock manager, one history (durable by default,
// built on first use: see io/history/open-history.ts), and the configuration in force. Built once from a validated configuration; tools receive it with each
// call. When the configuration file changes, the next call sees the new generation: its guard
// lists are applied by building a new guard (the command line's lists always stay).

import { mergeLists, type EngineConfig } from '../core/config/config.js';
import type { GuardLists } from '../core/config/config-schema.js';
import { combineRootLists, listsAt } from '../core/config/root-lists.js';
import { withOrigin } from '../core/history/bound-history.js';
import type { HistoryOrigin, HistoryStore } from '../core/history/history-store.js';
import { EditJournal } from '../core/merge/edit-journal.js';
import { ReceiptBook } from '../core/receipt-book.js';
import { ConfigSource, DEFAULT_CONFIG_NAME, type ConfigState } from '../io/guard/config-file.js';
import { LockManager } from '../io/locks/file-lock.js';
import { openHistory } from '../io/history/open-history.js';
import { stateDirFor } from '../io/history/history-file.js';
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
  /**
   * The configuration file of a further root (an MCP client's): its lists govern that root's paths
   * and it is followed like the first root's; may throw `config_invalid`. Unset: only the first
   * root's file (or the one named by --config) applies.
   */
  rootConfig?: (root: string) => ConfigSource;
  /** Sweep dead lock files under the root at start (default true; a one-shot command skips it). */
  sweepLocks?: boolean;
}

export async function createEngine(config: EngineConfig, options: EngineOptions = {}): Promise<Engine> {
  const source = options.configSource ?? ConfigSource.fixed();
  let roots: readonly string[] = [config.root, ...(config.roots ?? [])];
  // With options.rootConfig every root has its own configuration file (the first root's is `source`),
  // and each file's lists govern its own root's paths; without it, `source` governs every root.
  const sourcesFor = (list: readonly string[], known: ReadonlyMap<string, ConfigSource>): Map<string, ConfigSource> =>
    new Map(options.rootConfig ? list.map((r) => [r, known.get(r) ?? (r === config.root ? source : options.rootConfig!(r))] as const) : []);
  let sources = sourcesFor(roots, new Map());
  // The configuration file in use and the default one at each root are the operator's: no tool may change them.
  const protect = (list: readonly string[], srcs: ReadonlyMap<string, ConfigSource>) => [
    ...list.map((r) => path.join(r, DEFAULT_CONFIG_NAME)),
    ...[source, ...srcs.values()].flatMap((s) => (s.location ? [s.location.path] : [])),
  ];
  // `--durability fsync`: every write through the guard flushes file and directory (io/atomic-write.ts)
  const durable = config.durability === 'fsync';
  // hashline's state directory (every root's durable history) is out of every tool's reach, whichever root holds it
  const sealTree = [stateDirFor(options.stateDir)];
  // Unrestricted access is the operator's, decided at start (a reload never widens it)
  const unrestricted = config.access === 'unrestricted';
  // The first generation's lists are already merged into `config` (the command line's and the file's).
  const startGeneration = source.current.generation;
  const listsFor = (state: ConfigState, list: readonly string[], srcs: ReadonlyMap<string, ConfigSource>): GuardLists => {
    if (srcs.size === 0) return state.generation === startGeneration ? config : mergeLists(config.cliLists, state.settings.lists);
    return combineRootLists(list.map((r) => listsAt(mergeLists(config.cliLists, srcs.get(r)!.current.settings.lists), r)));
  };
  const guardFor = (state: ConfigState, list: readonly string[], srcs: ReadonlyMap<string, ConfigSource>) => {
    const { allow, block, readAllow, readBlock } = listsFor(state, list, srcs);
    return PathGuard.create({ root: list[0]!, roots: list.slice(1), allow, block, readAllow, readBlock, protect: protect(list, srcs), seal: options.seal, sealTree, durable, unrestricted, writeVcsDirs: state.settings.writeVcsDirs });
  };
  /** What a guard is built from: the generation of every configuration file in use. */
  const stamp = (srcs: ReadonlyMap<string, ConfigSource>) => [source, ...srcs.values()].map((s) => s.current.generation).join(':');
  let guardStamp = stamp(sources);
  let guard = await guardFor(source.current, roots, sources);
  /** Bumped by every rebuild of the guard, so a slower, older rebuild never replaces a newer one. */
  let builds = 0;
  const refreshAll = () => {
    source.refresh();
    for (const s of sources.values()) if (s !== source) s.refresh();
  };
  // the store itself is built on its first use, so a server answers its first messages without it
  const history = await openHistory(config.history, {
    realRoot: guard.realRoot,
    lazy: true,
    durable,
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
      refreshAll();
      const now = stamp(sources);
      if (now !== guardStamp) {
        const build = ++builds;
        const next = await guardFor(source.current, roots, sources);
        if (build === builds) {
          guard = next;
          guardStamp = now;
        }
      }
      return source.current;
    },
    refreshConfigSync() {
      refreshAll();
      return stamp(sources) === guardStamp;
    },
    async setRoots(next) {
      if (next.length === 0) throw new HashlineError('invalid_arguments', 'at least one root is needed');
      // a further root's configuration file that does not parse refuses the change (the roots in force stay)
      const nextSources = sourcesFor(next, sources);
      const nextStamp = stamp(nextSources);
      const build = ++builds;
      const built = await guardFor(source.current, next, nextSources);
      if (build === builds) {
        roots = [...next];
        sources = nextSources;
        guard = built;
        guardStamp = nextStamp;
      }
    },
  };
  return Object.freeze(engine);
}

/** The engine as one call sees it: its history records carry the call's origin (tool, client, batch). */
export function engineForCall(engine: Engine, origin: HistoryOrigin): Engine {
  return Object.freeze(Object.create(engine, { history: { value: withOrigin(engine.history, origin), enumerable: true } }) as Engine);
}
