// HTTP PUT writes go into the history like a tool's write, so the console shows them and
// fs_rollback can undo them: the bytes the file held before (read under the path's lock, right
// before the commit) and the bytes it holds after (copied while the body streams in, up to what the
// history keeps) are recorded with `recordChange`, under the origin `http_put_file` or
// `http_put_tar` and the daemon's client id (`http:<token id>` or `http:loopback`). One request is
// one batch. The route awaits `flush()` before it replies, so a 204 never acknowledges a change
// the history does not hold. The changes of a request are handed to the history in groups (up to
// RECORD_GROUP files or RECORD_GROUP_BYTES of content, and the rest at `flush`), so the many files
// of an archive commit in a few transactions instead of one every 20 ms: a durable store then
// rewrites each of its pages once per group, not once per commit, and looks a group's paths up at
// once (DurableHistory.load).

import { randomUUID } from 'node:crypto';
import { lstatSync } from 'node:fs';
import type { HistoryOrigin } from '../../core/history/history-store.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import { readVerifiedBytes } from '../../io/read/read-batch.js';
import type { Engine } from '../../tools/engine.js';
import { forgetFile } from '../../lang/symbols/symbol-search.js';
import { keepBeforeBytes, recordChange } from '../../tools/record-change.js';

export type PutTool = 'http_put_file' | 'http_put_tar';

/** Changes held before they go to the history together (see the header). */
const RECORD_GROUP = 2000;
const RECORD_GROUP_BYTES = 16 * 1024 * 1024;

interface Change {
  real: string;
  before: Uint8Array | undefined | null;
  after: Uint8Array | null;
}

/** A copy of a streamed body, kept while it is no larger than `limit`. */
export class BodyCopy {
  private chunks: Uint8Array[] = [];
  private size = 0;
  private over = false;

  constructor(private readonly limit: number) {}

  async *through(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const chunk of chunks) {
      if (!this.over) {
        this.size += chunk.length;
        if (this.size > this.limit) {
          this.over = true;
          this.chunks = [];
        } else this.chunks.push(Buffer.from(chunk));
      }
      yield chunk;
    }
  }

  /** The whole body, or null when it was larger than the limit. */
  bytes(): Uint8Array | null {
    return this.over ? null : Buffer.concat(this.chunks, this.size);
  }
}

export class PutRecorder {
  readonly origin: HistoryOrigin;
  /** The largest content worth keeping: larger files are logged without it. */
  readonly limit: number;

  constructor(
    private readonly engine: Engine,
    tool: PutTool,
    client: string,
  ) {
    this.origin = { tool, client, batch: randomUUID() };
    this.limit = keepBeforeBytes(engine);
  }

  copy(): BodyCopy {
    return new BodyCopy(this.limit);
  }

  /**
   * The bytes at `rp.real` before the write (call under the path's lock): undefined when there is
   * no file, null when there is one the history would not keep (too large, unreadable).
   */
  async before(rp: ResolvedPath): Promise<Uint8Array | undefined | null> {
    const st = lstatSync(rp.real, { throwIfNoEntry: false });
    if (st === undefined) return undefined;
    if (!st.isFile() || st.size > this.limit) return null;
    try {
      return (await readVerifiedBytes(this.engine.guard, rp, 'write')).bytes;
    } catch {
      return null;
    }
  }

  private held: Change[] = [];
  private heldBytes = 0;
  /** The groups handed over so far, in order (see handOver). */
  private handing: Promise<void> = Promise.resolve();

  /**
   * Records a landed write of `real`: `after` null when the new content was too large to keep.
   * Caches of the old content are dropped now; the history gets it with its group (see the header).
   */
  record(real: string, before: Uint8Array | undefined | null, after: Uint8Array | null): void {
    forgetFile(real);
    this.held.push({ real, before, after });
    this.heldBytes += (before?.length ?? 0) + (after?.length ?? 0);
    if (this.held.length >= RECORD_GROUP || this.heldBytes >= RECORD_GROUP_BYTES) this.handOver(true);
  }

  /**
   * Hands the held changes to the history after the groups before them, in the order they landed:
   * their paths are looked up together first (one read for the group, not one per path), and
   * `commit` starts their commit.
   */
  private handOver(commit: boolean): Promise<void> {
    const changes = this.held;
    this.held = [];
    this.heldBytes = 0;
    const { engine, origin } = this;
    this.handing = this.handing.then(async () => {
      if (changes.length > 1) await engine.history.load(changes.map((c) => c.real));
      for (const c of changes) recordChange(engine, c.real, c.before ?? undefined, c.after, origin);
      if (commit) void engine.history.flush();
    });
    // a failure is met by `flush`, which awaits the same promise
    this.handing.catch(() => undefined);
    return this.handing;
  }

  /** Resolves once what was recorded is stored. */
  async flush(): Promise<void> {
    await this.handOver(false);
    await this.engine.history.flush();
  }
}
