// The durable history's queue of writes not yet committed: the operations in order, and which
// paths they touch, so a window load knows whether committing them first could change what it
// finds (a write of that path, or a rename, which may pull a path up the window). Taken whole by
// each commit; records queued one after the other (an archive's files) are taken as one
// operation that stores them in multi-row statements (history-batch-sql.ts).

import { recordVersions } from './history-batch-sql.js';
import type { Op, RecordFields } from './history-sql.js';

export type QueuedWrite = (root: number) => Op<unknown>;

interface Entry {
  readonly op: QueuedWrite;
  /** Set for a recordVersion of these fields (`op` does the same alone). */
  readonly record?: RecordFields;
}

export class WriteQueue {
  private ops: Entry[] = [];
  private readonly paths = new Set<string>();
  private renames = false;

  get size(): number {
    return this.ops.length;
  }

  /** Queues `op`; `record`: `op` is recordVersion of these fields, which may commit with its neighbours'. */
  push(paths: readonly string[], op: QueuedWrite, record?: RecordFields): void {
    this.ops.push(record === undefined ? { op } : { op, record });
    for (const p of paths) this.paths.add(p);
    if (paths.length > 1) this.renames = true;
  }

  /** True when a queued write touches `path`, or a rename is queued. */
  touches(path: string): boolean {
    return this.renames || this.paths.has(path);
  }

  /** Everything queued, in order (consecutive records as one operation); the queue is empty afterwards. */
  take(): QueuedWrite[] {
    const entries = this.ops;
    this.ops = [];
    this.paths.clear();
    this.renames = false;
    const out: QueuedWrite[] = [];
    for (let i = 0; i < entries.length; ) {
      let j = i;
      while (j < entries.length && entries[j]!.record !== undefined) j++;
      if (j - i > 1) {
        const rs = entries.slice(i, j).map((e) => e.record!);
        out.push((root) => recordVersions(root, rs));
        i = j;
      } else {
        out.push(entries[i]!.op);
        i++;
      }
    }
    return out;
  }
}
