// Follows the shared history for the live feed: while someone watches, it polls the store's
// changeStamp() (SQLite: PRAGMA data_version plus this process's commits, microseconds; PostgreSQL:
// the newest id) and reads feed({ after }) only when the stamp moved, so edits committed by other
// processes (each client's `hashline mcp`) reach the console within one poll. Each watcher has its
// own cursor and filters; the views of new entries (with their line counts) are made once per poll
// and shared. A watcher that names a cursor (`after`, or the stream's Last-Event-ID) first gets
// what it missed. Stops polling when nobody watches.

import type { FeedQuery, HistoryQuery, LogEntry } from '../../core/history/history-store.js';
import { inScope } from '../../core/history/path-scope.js';
import type { EntryView, VersionReader } from './version-reader.js';

export interface FeedFilter {
  readonly client?: string | undefined;
  readonly tool?: string | undefined;
  /** Real path: a file or a folder (and below), or a folder prefix ending in `/` (path-scope.ts). */
  readonly path?: string | undefined;
}

export function matchesFilter(e: LogEntry, f: FeedFilter): boolean {
  if (f.client !== undefined && e.client !== f.client) return false;
  if (f.tool !== undefined && e.tool !== f.tool) return false;
  if (f.path !== undefined && !inScope(f.path, e.path)) return false;
  return true;
}

/** The filter as feed() takes it (undefined members left out). */
export function feedFilter(f: FeedFilter): Pick<FeedQuery, 'client' | 'tool' | 'path'> {
  return {
    ...(f.client === undefined ? {} : { client: f.client }),
    ...(f.tool === undefined ? {} : { tool: f.tool }),
    ...(f.path === undefined ? {} : { path: f.path }),
  };
}

interface Watcher {
  cursor: number;
  readonly filter: FeedFilter;
  readonly send: (views: EntryView[]) => void;
}

const PAGE = 1000;

export class FeedFollower {
  private readonly watchers = new Set<Watcher>();
  private timer: NodeJS.Timeout | undefined;
  private stamp: string | undefined;
  private newest = 0;
  private polling = false;
  private closed = false;

  constructor(
    private readonly query: HistoryQuery,
    private readonly reader: VersionReader,
    private readonly pollMs: number,
    private readonly onError: (e: unknown) => void = () => undefined,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  /** Starts delivering entries after `after` (default: from now on). Returns the unsubscribe function. */
  async watch(filter: FeedFilter, after: number | undefined, send: (views: EntryView[]) => void): Promise<() => void> {
    const w: Watcher = { cursor: after ?? (await this.newestId()), filter, send };
    if (after !== undefined) {
      for (;;) {
        const missed = await this.query.feed({ ...feedFilter(filter), after: w.cursor, limit: PAGE });
        if (missed.length === 0) break;
        w.cursor = missed[missed.length - 1]!.id;
        send(await this.reader.views(missed));
        if (missed.length < PAGE) break;
      }
    }
    this.watchers.add(w);
    this.schedule();
    return () => {
      this.watchers.delete(w);
    };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.watchers.clear();
  }

  private async newestId(): Promise<number> {
    const [top] = await this.query.feed({ limit: 1 });
    return Math.max(top?.id ?? 0, this.newest);
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed || this.watchers.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll().finally(() => this.schedule());
    }, this.pollMs);
    this.timer.unref();
  }

  /** One poll: read the stamp; when it moved, read what is new and deliver it. */
  async poll(): Promise<void> {
    if (this.polling || this.watchers.size === 0) return;
    this.polling = true;
    try {
      const stamp = await this.query.changeStamp();
      if (stamp === this.stamp) return;
      this.stamp = stamp;
      let from = Math.min(...[...this.watchers].map((w) => w.cursor));
      for (;;) {
        const fresh = await this.query.feed({ after: from, limit: PAGE });
        if (fresh.length === 0) break;
        await this.deliver(fresh);
        from = fresh[fresh.length - 1]!.id;
        this.newest = Math.max(this.newest, from);
        if (fresh.length < PAGE) break;
      }
    } catch (e) {
      this.stamp = undefined; // try again on the next poll
      this.onError(e);
    } finally {
      this.polling = false;
    }
  }

  private async deliver(fresh: readonly LogEntry[]): Promise<void> {
    const wanted = fresh.filter((e) => [...this.watchers].some((w) => e.id > w.cursor && matchesFilter(e, w.filter)));
    const views = new Map((await this.reader.views(wanted)).map((v) => [v.id, v]));
    const last = fresh[fresh.length - 1]!.id;
    for (const w of this.watchers) {
      const mine = wanted.filter((e) => e.id > w.cursor && matchesFilter(e, w.filter)).map((e) => views.get(e.id)!);
      w.cursor = Math.max(w.cursor, last);
      if (mine.length > 0) w.send(mine);
    }
  }
}
