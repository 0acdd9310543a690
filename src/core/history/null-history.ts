// `--history off`: nothing is kept, in memory or anywhere. Every text is unrecordable, so an edit
// applies only when its tag is the live file's tag (a 16-bit check, no merge of a stale edit) and
// fs_rollback has nothing to restore. For operators who want no copy of file content kept at all.

import type { HistoryLimits, HistoryStatus, HistoryStore, Version } from './history-store.js';
import { DEFAULT_LIMITS } from './snapshot-store.js';

export class NullHistory implements HistoryStore {
  readonly limits: HistoryLimits = { ...DEFAULT_LIMITS, maxSnapshotBytes: 0 };
  recordable(): boolean {
    return false;
  }
  record(): null {
    return null;
  }
  markSeen(): void {}
  versions(): readonly Version[] {
    return [];
  }
  withTag(): Version[] {
    return [];
  }
  head(): undefined {
    return undefined;
  }
  reanchor(): void {}
  rename(): void {}
  keep(): void {}
  async load(): Promise<void> {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
  status(): HistoryStatus {
    return { backend: 'off', durable: false };
  }
}
