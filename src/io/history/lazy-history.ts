// A history store opened on the first call that needs it, so a server answers `initialize` and
// `tools/list` without building it (the store object, its runner, retention's timers, the
// migration of 0.1's JSON history and the database file all wait for
// the first tool that records or asks). open-history.ts decides at start everything a start
// reports (the store asked for, a fallback to memory and its warning), so what `status()` says
// before the first use is what the opened store says after it. Opening is synchronous: two
// first uses at once open it once; `close()` before any use opens nothing; `flush()` before any
// use has nothing to commit.

import type {
  HistoryLimits, HistoryOrigin, HistoryQuery, HistoryStatus, HistoryStore, RecordKind, RecordOptions, Version,
} from '../../core/history/history-store.js';

export class LazyHistory implements HistoryStore {
  private store: HistoryStore | undefined;

  /**
   * `open` builds the store (it does not throw: a store that cannot work reports it and goes on in
   * memory); `limits` and `planned` are what that store will answer for `limits` and `status()`.
   */
  constructor(
    private readonly open: () => HistoryStore,
    readonly limits: HistoryLimits,
    private readonly planned: HistoryStatus,
  ) {}

  /** True once the store was built. */
  get opened(): boolean {
    return this.store !== undefined;
  }

  /** The store, built now when it was not yet. */
  get live(): HistoryStore {
    return (this.store ??= this.open());
  }

  get query(): HistoryQuery | undefined {
    return this.live.query;
  }

  recordable(text: string): boolean {
    return this.live.recordable(text);
  }

  record(path: string, text: string, options?: RecordOptions): string | null {
    return this.live.record(path, text, options);
  }

  markSeen(path: string, text: string, lines: Iterable<number>): void {
    this.live.markSeen(path, text, lines);
  }

  versions(path: string): readonly Version[] {
    return this.live.versions(path);
  }

  withTag(path: string, tag: string): Version[] {
    return this.live.withTag(path, tag);
  }

  head(path: string): Version | undefined {
    return this.live.head(path);
  }

  reanchor(path: string, text: string, options?: { origin?: HistoryOrigin | undefined }): void {
    this.live.reanchor(path, text, options);
  }

  renamedFrom(path: string): Promise<string | undefined> {
    return this.live.renamedFrom?.(path) ?? Promise.resolve(undefined);
  }

  rename(from: string, to: string, options?: { origin?: HistoryOrigin | undefined }): void {
    this.live.rename(from, to, options);
  }

  keep(path: string, bytes: Uint8Array | undefined, options: { origin?: HistoryOrigin | undefined; kind: RecordKind }): void {
    this.live.keep(path, bytes, options);
  }

  load(paths: readonly string[]): Promise<void> {
    return this.live.load(paths);
  }

  /** Nothing is recorded before the store opens, so there is nothing to commit. */
  async flush(): Promise<void> {
    await this.store?.flush();
  }

  /** Commits at the end of this turn (HistoryStore.flushSoon), or now when the store has none. */
  flushSoon(): void {
    const store = this.store;
    if (store === undefined) return;
    if (store.flushSoon) store.flushSoon();
    else void store.flush();
  }

  async close(): Promise<void> {
    await this.store?.close();
  }

  status(): HistoryStatus {
    return this.store?.status() ?? this.planned;
  }
}
