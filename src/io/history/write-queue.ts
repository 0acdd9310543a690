// The durable history's queue of writes not yet committed: the operations in order, and which
// paths they touch, so a window load knows whether committing them first could change what it
// finds (a write of that path, or a rename, which may pull a path up the window). Taken whole by
// each commit; records, anchors and marks of seen lines queued one after the other (an archive's
// files, a structural rewrite's chunk) are taken as one operation that stores them in multi-row
// statements (history-batch-sql.ts).

import { groupWrites, type GroupWrite } from './history-batch-sql.js';
import type { Op } from './history-sql.js';

export type QueuedWrite = (root: number) => Op<unknown>;

interface Entry {
  readonly op: QueuedWrite;
  /** Set when `op` is this write alone (it may commit with its neighbours'). */
  readonly group?: GroupWrite;
}

export class WriteQueue {
  private ops: Entry[] = [];
  private readonly paths = new Set<string>();
  private renames = false;

  get size(): number {
    return this.ops.length;
  }

  /** Queues `op`; `group`: the write `op` makes, which may commit with its neighbours'. */
  push(paths: readonly string[], op: QueuedWrite, group?: GroupWrite): void {
    this.ops.push(group === undefined ? { op } : { op, group });
    for (const p of paths) this.paths.add(p);
    if (paths.length > 1) this.renames = true;
  }

  /** True when a queued write touches `path`, or a rename is queued. */
  touches(path: string): boolean {
    return this.renames || this.paths.has(path);
  }

  /** Everything queued, in order (consecutive group writes as one operation); the queue is empty afterwards. */
  take(): QueuedWrite[] {
    const entries = this.ops;
    this.ops = [];
    this.paths.clear();
    this.renames = false;
    const out: QueuedWrite[] = [];
    for (let i = 0; i < entries.length; ) {
      let j = i;
      while (j < entries.length && entries[j]!.group !== undefined) j++;
      if (j - i > 1) {
        const ws = entries.slice(i, j).map((e) => e.group!);
        out.push((root) => groupWrites(root, ws));
        i = j;
      } else {
        out.push(entries[i]!.op);
        i++;
      }
    }
    return out;
  }
}
