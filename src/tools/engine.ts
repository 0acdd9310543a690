// The engine every face shares: one guard, one lock manager, one session history. Built once from
// a validated configuration; tools receive it with each call.

import type { EngineConfig } from '../core/config.js';
import { SnapshotStore } from '../core/history/snapshot-store.js';
import { LockManager } from '../io/file-lock.js';
import { historyFileFor, persistHistory } from '../io/history-file.js';
import { PathGuard } from '../io/path-guard.js';

export interface Engine {
  readonly config: EngineConfig;
  readonly guard: PathGuard;
  readonly locks: LockManager;
  /** Keyed by real absolute path. */
  readonly history: SnapshotStore;
}

export interface EngineOptions {
  /** Where a persisted history is kept (default: the user's state directory). */
  stateDir?: string;
}

export async function createEngine(config: EngineConfig, options: EngineOptions = {}): Promise<Engine> {
  const guard = await PathGuard.create(config);
  const history = new SnapshotStore();
  if (config.persistHistory) persistHistory(history, historyFileFor(guard.realRoot, options.stateDir), guard.realRoot);
  const locks = new LockManager({ root: guard.realRoot, display: (abs) => guard.display(abs) });
  // A writer killed mid-write leaves its lock and a temporary file beside the file. The sweep
  // clears them under the root in slices (io/lock-sweep.ts) while the engine serves:
  // the first slice runs before this returns (a small tree is swept whole), and a dead lock not
  // reached yet is taken over by the first writer that meets it.
  void locks.recoverStale().catch(() => 0);
  return Object.freeze({ config, guard, locks, history });
}
