// The query API of a durable history (HistoryQuery in core/history/history-store.ts) over its runner:
// a feed with a cursor, per-file timelines, content by id, a cheap change probe, retention, counts.
// It reads the store only; showing content is the caller's decision (the read policy).

import type { FeedQuery, HistoryQuery, LogEntry, StoredContent } from '../../core/history/history-store.js';
import { applyRetention, contentOf, feed, newestId, stats, timeline, type Retention } from './history-queries.js';
import type { Runner } from './runner.js';

/** What the queries need of the history they read (DurableHistory is one). */
export interface QueryHost {
  readonly sync: boolean;
  readonly runner: Runner;
  localCommits: number;
  root(): number;
  open(): Promise<unknown>;
  flush(): Promise<void>;
}

export function makeQuery(history: QueryHost, retention: Retention): HistoryQuery {
  const rootId = async (): Promise<number> => {
    if (history.sync) return history.root();
    await history.open();
    return history.root();
  };
  return {
    async feed(query: FeedQuery = {}): Promise<LogEntry[]> {
      await history.flush();
      const root = await rootId();
      return history.runner.run(() => feed(root, query), false);
    },
    async timeline(path: string, query: { before?: number; limit?: number } = {}): Promise<LogEntry[]> {
      await history.flush();
      const root = await rootId();
      return history.runner.run(() => timeline(root, path, query.before, query.limit), false);
    },
    async content(id: number): Promise<StoredContent | undefined> {
      await history.flush();
      return history.runner.run(() => contentOf(id), false);
    },
    async changeStamp(): Promise<string> {
      if (history.runner.stamp) return `${history.runner.stamp()}.${history.localCommits}`;
      return String(await history.runner.run(() => newestId(), false));
    },
    async maintain(now = Date.now()): Promise<number> {
      await history.flush();
      const root = await rootId();
      const removed = await history.runner.run(() => applyRetention(root, retention, now), true);
      if (removed > 0) history.localCommits++;
      return removed;
    },
    async stats() {
      await history.flush();
      const root = await rootId();
      const s = await history.runner.run(() => stats(root), false);
      const fileBytes = history.runner.fileBytes?.();
      return fileBytes === undefined ? s : { ...s, fileBytes };
    },
  };
}
