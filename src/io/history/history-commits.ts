// When the durable history's queued writes commit: the writes of one tool call commit together, in
// one transaction, when the adapter awaits `flush()` before it replies; `flushSoon()` commits at the
// end of this turn of the event loop (a read served over MCP, after its reply was handed on); a
// caller that never flushes has its writes committed 20 ms later; a synchronous store's writes
// still queued when the process exits normally commit then. What is queued is a WriteQueue.

import type { GroupWrite } from './history-batch-sql.js';
import type { Runner } from './runner.js';
import { WriteQueue, type QueuedWrite } from './write-queue.js';

/** What the commits need from the history they serve. */
export interface CommitHooks {
  /** The root's id (a synchronous store resolves it on first use). */
  root(): number;
  failed(): boolean;
  /** Reports a failed commit once; the history goes on in memory. */
  fail(e: unknown): void;
  /** After each commit; `async`: an asynchronous store's (the database may have decided a race). */
  committed(async: boolean): void;
}

export class HistoryCommits {
  readonly pending = new WriteQueue();
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;

  constructor(
    private readonly runner: Runner,
    private readonly hooks: CommitHooks,
  ) {
    if (this.sync) openSync.add(this);
  }

  private get sync(): boolean {
    return this.runner.runSync !== undefined;
  }

  /** Queues a write, committed by the next flush (or 20 ms later). */
  queue(paths: readonly string[], op: QueuedWrite, group?: GroupWrite): void {
    if (this.hooks.failed()) return;
    this.pending.push(paths, op, group);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, 20);
  }

  /** Commits what is queued, now (synchronous runner). */
  flushSync(): void {
    if (this.pending.size === 0 || this.hooks.failed() || !this.sync) return;
    const batch = this.pending.take();
    try {
      const root = this.hooks.root();
      this.runner.runSync!(function* () {
        for (const op of batch) yield* op(root);
      }, true);
      this.hooks.committed(false);
    } catch (e) {
      this.hooks.fail(e);
    }
  }

  /** Commits what is queued at the end of this turn of the event loop (see HistoryStore.flushSoon). */
  flushSoon(): void {
    if (this.pending.size === 0 || this.hooks.failed()) return;
    this.immediate ??= setImmediate(() => {
      this.immediate = undefined;
      void this.flush();
    });
  }

  async flush(): Promise<void> {
    if (this.sync) {
      this.flushSync();
      return;
    }
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0 || this.hooks.failed()) return;
    const batch = this.pending.take();
    const root = this.hooks.root();
    const { runner, hooks } = this;
    this.flushing = (async () => {
      try {
        await runner.run(function* () {
          for (const op of batch) yield* op(root);
        }, true);
        hooks.committed(true);
      } catch (e) {
        hooks.fail(e);
      }
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  /** Stops the timers and commits what is queued. */
  async close(): Promise<void> {
    openSync.delete(this);
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    await this.flush();
  }
}

/** Synchronous stores with writes possibly queued: committed when the process exits normally. */
const openSync = new Set<HistoryCommits>();
process.once('exit', () => {
  for (const c of openSync) c.flushSync();
});
