// Atomic, durable replacement of many existing files at once, with the guarantees of
// io/atomic-write.ts (each parent directory opened once without following links and verified, all
// names resolved through its descriptor; a temporary file per target with the target's mode and
// owner; fsync; rename; fsync of the directory) but in phases, so the costly part runs in
// parallel: write every temporary file, fsync them concurrently, rename them, fsync each directory
// once. The cheap calls are synchronous, a few files between yields to the event loop.

import { closeSync, constants, fchmodSync, fchownSync, fsync, lstatSync, openSync, readlinkSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { linkSwapped } from '../core/messages/guard.js';
import { tempNameFor } from './atomic-write.js';
import type { PathGuard, ResolvedPath } from './path-guard.js';

export interface BatchWrite {
  readonly rp: ResolvedPath;
  readonly data: Uint8Array;
}

export interface BatchWriteOutcome {
  readonly written: readonly ResolvedPath[];
  readonly failed: ReadonlyArray<{ rp: ResolvedPath; error: HashlineError }>;
}

export interface BatchWriteOptions {
  signal?: AbortSignal | undefined;
  /** fsync files and directories (default true). */
  durable?: boolean;
  /** fsyncs in flight at once (default 64). */
  concurrency?: number;
}

interface Anchor {
  fd: number;
  prefix: string;
}

interface Pending {
  item: BatchWrite;
  anchor: Anchor;
  temp: string;
  fd: number | undefined;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
const fsyncAsync = (fd: number) => new Promise<void>((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));

function openAnchor(guard: PathGuard, dir: string, display: string): Anchor {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HashlineError('not_found', `cannot write \`${display}\`: its parent directory does not exist`, { cause: e });
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new HashlineError('link_swapped', linkSwapped(display), { cause: e });
    throw new HashlineError('io_error', `failed to write \`${display}\`: ${(e as Error).message}`, { cause: e });
  }
  if (process.platform !== 'linux') return { fd, prefix: dir };
  let actual: string | null;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return { fd, prefix: dir };
  }
  if (actual !== dir || !guard.admitsReal(actual, 'write')) {
    closeSync(fd);
    throw new HashlineError('link_swapped', linkSwapped(display), { details: { opened: actual } });
  }
  return { fd, prefix: `/proc/self/fd/${fd}` };
}

/** Creates and fills the temporary file of `p` (not yet synced). */
function writeTemp(p: Pending): void {
  const { rp, data } = p.item;
  const target = `${p.anchor.prefix}/${path.basename(rp.real)}`;
  const st = lstatSync(target);
  if (st.isSymbolicLink()) throw new HashlineError('link_swapped', linkSwapped(rp.display));
  if (st.isDirectory()) throw new HashlineError('is_directory', `\`${rp.display}\` is a directory`);
  if (!st.isFile()) throw new HashlineError('not_regular_file', `\`${rp.display}\` is not a regular file`);
  p.fd = openSync(p.temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  let off = 0;
  while (off < data.length) off += writeSync(p.fd, data, off, data.length - off, off);
  fchmodSync(p.fd, st.mode & 0o7777);
  if (process.getuid?.() === 0 && (st.uid !== 0 || st.gid !== 0)) {
    try {
      fchownSync(p.fd, st.uid, st.gid);
    } catch {
      // keeping the owner is best effort
    }
  }
}

function discard(p: Pending): void {
  if (p.fd !== undefined) {
    try {
      closeSync(p.fd);
    } catch {
      // already closed
    }
    p.fd = undefined;
  }
  try {
    unlinkSync(p.temp);
  } catch {
    // never created, or already gone
  }
}

async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * Replaces each existing regular file `rp.real` with `data`. Files that fail are reported (and
 * left as they were); the others are written.
 */
export async function writeAtomicBatch(guard: PathGuard, items: readonly BatchWrite[], options: BatchWriteOptions = {}): Promise<BatchWriteOutcome> {
  const durable = options.durable !== false;
  const failed: Array<{ rp: ResolvedPath; error: HashlineError }> = [];
  const fail = (p: Pending | BatchWrite, e: unknown) => {
    const item = 'item' in p ? p.item : p;
    if ('item' in p) discard(p);
    const err = toHashlineError(e);
    const coded = err.code === 'internal' ? new HashlineError('io_error', `failed to write \`${item.rp.display}\`: ${err.message}`, { cause: e }) : err;
    failed.push({ rp: item.rp, error: coded });
  };
  const anchors = new Map<string, Anchor>();
  let pending: Pending[] = [];
  try {
    let n = 0;
    for (const item of items) {
      if (++n % 32 === 0) await yieldToLoop();
      const dir = path.dirname(item.rp.real);
      let anchor = anchors.get(dir);
      try {
        if (!anchor) {
          anchor = openAnchor(guard, dir, item.rp.display);
          anchors.set(dir, anchor);
        }
      } catch (e) {
        fail(item, e);
        continue;
      }
      const p: Pending = { item, anchor, temp: `${anchor.prefix}/${path.basename(tempNameFor(item.rp.real))}`, fd: undefined };
      try {
        writeTemp(p);
        pending.push(p);
      } catch (e) {
        fail(p, e);
      }
    }
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    if (durable) {
      const synced: Pending[] = [];
      await pool(pending, options.concurrency ?? 64, async (p) => {
        try {
          await fsyncAsync(p.fd!);
          synced.push(p);
        } catch (e) {
          fail(p, e);
        }
      });
      pending = pending.filter((p) => synced.includes(p));
    }
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    const written: ResolvedPath[] = [];
    const touched = new Set<Anchor>();
    n = 0;
    for (const p of pending) {
      if (++n % 64 === 0) await yieldToLoop();
      try {
        closeSync(p.fd!);
        p.fd = undefined;
        renameSync(p.temp, `${p.anchor.prefix}/${path.basename(p.item.rp.real)}`);
        written.push(p.item.rp);
        touched.add(p.anchor);
      } catch (e) {
        fail(p, e);
      }
    }
    pending = [];
    if (durable) await pool([...touched], options.concurrency ?? 64, (a) => fsyncAsync(a.fd).catch(() => undefined));
    return { written, failed };
  } finally {
    for (const p of pending) discard(p);
    for (const a of anchors.values()) {
      try {
        closeSync(a.fd);
      } catch {
        // already closed
      }
    }
  }
}
