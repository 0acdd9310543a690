// The sizes of the listing of GET /v1/fs/tar (tar-walk.ts), for its byte cap: each directory's
// files are lstat'ed through its descriptor (`/proc/<pid>/fd/N/name`) on the read thread
// (tar-read-pool.ts) while the listing goes on to the next directories, or on this thread when
// there is no thread to take them or it lost the request. A directory's descriptor stays open until
// its sizes are in (a descriptor number is never reused under a request still out), at most
// MAX_PENDING directories at a time.

import { closeSync } from 'node:fs';
import { listSizes } from './tar-pack-files.js';
import type { TarReadPool } from './tar-read-pool.js';

interface Pending {
  id: number;
  fd: number;
  prefix: string;
  names: string[];
}

/** Directories whose sizes may be out with the thread at once. */
export const MAX_PENDING = 8;

export class ListingSizes {
  private readonly pending: Pending[] = [];
  private bytes = 0;

  constructor(
    private readonly pool: TarReadPool,
    private readonly maxBytes: number,
    /** Throws the refusal (past the byte cap). */
    private readonly refuse: () => never,
  ) {}

  /** Counts the files `names` of the directory open as `fd` (named through `prefix`); takes the descriptor and closes it once they are counted. */
  add(fd: number, prefix: string, names: string[]): void {
    const id = this.pool.submit({ prefix, names, rels: [], relDir: '', sizesOnly: true });
    if (id >= 0) {
      this.pending.push({ id, fd, prefix, names });
      return;
    }
    let sizes: number[];
    try {
      sizes = listSizes(prefix, names);
    } finally {
      closeSync(fd);
    }
    this.count(sizes);
  }

  /** Counts what came back, waiting while more than `max` directories are out (all of them with 0); throws past the cap. */
  async settle(max: number): Promise<void> {
    for (;;) {
      const seen = this.pool.collect();
      this.take(true);
      if (this.pending.length <= max) return;
      await this.pool.wait(seen);
    }
  }

  /** For the way out, also after a throw: waits for every request still out and closes its descriptor. */
  async close(): Promise<void> {
    for (;;) {
      const seen = this.pool.collect();
      this.take(false);
      if (this.pending.length === 0) return;
      await this.pool.wait(seen);
    }
  }

  private take(counting: boolean): void {
    for (let i = 0; i < this.pending.length; ) {
      const p = this.pending[i]!;
      const r = this.pool.take(p.id);
      if (r === undefined) {
        i++;
        continue;
      }
      this.pending.splice(i, 1);
      let sizes: ArrayLike<number> = [];
      try {
        // a lost request is counted here, through the descriptor still open
        if (counting) sizes = r === 'lost' ? listSizes(p.prefix, p.names) : r.sizes;
      } finally {
        closeSync(p.fd);
      }
      this.count(sizes);
    }
  }

  private count(sizes: ArrayLike<number>): void {
    for (let i = 0; i < sizes.length; i++) {
      const size = sizes[i]!;
      if (size < 0) continue; // gone, a link or not a regular file now
      this.bytes += size;
      if (this.bytes > this.maxBytes) this.refuse();
    }
  }
}
