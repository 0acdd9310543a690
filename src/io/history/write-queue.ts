// The durable history's queue of writes not yet committed: the operations in order, and which
// paths they touch, so a window load knows whether committing them first could change what it
// finds (a write of that path, or a rename, which may pull a path up the window). Taken whole by
// each commit.

import type { Op } from './history-sql.js';

export type QueuedWrite = (root: number) => Op<unknown>;

export class WriteQueue {
  private ops: QueuedWrite[] = [];
  private readonly paths = new Set<string>();
  private renames = false;

  get size(): number {
    return this.ops.length;
  }

  push(paths: readonly string[], op: QueuedWrite): void {
    this.ops.push(op);
    for (const p of paths) this.paths.add(p);
    if (paths.length > 1) this.renames = true;
  }

  /** True when a queued write touches `path`, or a rename is queued. */
  touches(path: string): boolean {
    return this.renames || this.paths.has(path);
  }

  /** Everything queued, in order; the queue is empty afterwards. */
  take(): QueuedWrite[] {
    const ops = this.ops;
    this.ops = [];
    this.paths.clear();
    this.renames = false;
    return ops;
  }
}
