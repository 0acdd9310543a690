// Atomic, durable replacement of many existing files at once, with the guarantees of
// io/atomic-write.ts (each parent directory opened once without following links and verified, all
// names resolved through its descriptor; a temporary file per target with the target's mode and
// owner; fsync; rename; fsync of the directory) but in phases, each run concurrently: write every
// temporary file, fsync them, rename them, then fsync each directory once. Only the calls that may
// wait on the disk (create, fsync, rename) go to the thread pool; writing into the page cache,
// chmod and close are made in place. Every target is a rewrite, so its mode is kept less the
// setuid and setgid bits (as atomic-write.ts does, owner first, then the mode).

import { closeSync, constants, fchmodSync, fchownSync, fsync, open, openSync, promises as fsp, readlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { errnoText, HashlineError, toHashlineError, errnoDetails } from '../../core/errors/errors.js';
import { linkSwapped } from '../../core/messages/guard.js';
import { REWRITE_KEEPS, tempNameFor } from '../atomic-write.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';

export interface BatchWrite {
  readonly rp: ResolvedPath;
  readonly data: Uint8Array;
  /**
   * The target's mode, when the caller has just checked (under its lock) that the target is the
   * regular file it read; the target is then not examined again. Otherwise it is lstat'ed here.
   */
  readonly mode?: number;
  /**
   * The target's owner, read in the same check as `mode` (used as root, to keep it); without it
   * a root process lstats the target here.
   */
  readonly owner?: { readonly uid: number; readonly gid: number };
}

export interface BatchWriteOutcome {
  readonly written: readonly ResolvedPath[];
  readonly failed: ReadonlyArray<{ rp: ResolvedPath; error: HashlineError }>;
  /** The directories that had a file renamed into them. */
  readonly directories: readonly string[];
}

/** fsyncs each directory once (best effort: some file systems refuse fsync on directories). */
export async function syncDirectories(dirs: Iterable<string>, concurrency = 32): Promise<void> {
  await pool([...new Set(dirs)], concurrency, async (dir) => {
    const h = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch(() => null);
    await h?.sync().catch(() => undefined);
    await h?.close().catch(() => undefined);
  });
}

export interface BatchWriteOptions {
  signal?: AbortSignal | undefined;
  /** fsync files and directories (default: the guard's durability). */
  durable?: boolean;
  /** Files in flight at once in each phase (default 32). */
  concurrency?: number;
  /**
   * fsync the parent directories here (default: when durable). A caller writing many small
   * batches passes false and calls syncDirectories once with every outcome's `directories`.
   */
  syncDirectories?: boolean;
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

const openAsync = (file: string, flags: number, mode: number) =>
  new Promise<number>((resolve, reject) => open(file, flags, mode, (e, fd) => (e ? reject(e) : resolve(fd))));
const fsyncAsync = (fd: number) => new Promise<void>((resolve, reject) => fsync(fd, (e) => (e ? reject(e) : resolve())));

/** `target`: the name in `dir` that will be replaced (the policy may admit it alone: see admitsParentOf). */
function openAnchor(guard: PathGuard, dir: string, display: string, target: string): Anchor {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HashlineError('not_found', `cannot write \`${display}\`: its parent directory does not exist`, { cause: e });
    if (code === 'ELOOP' || code === 'ENOTDIR') throw new HashlineError('link_swapped', linkSwapped(display), { cause: e });
    throw new HashlineError('io_error', `failed to write \`${display}\`: ${errnoText(e)}`, { details: errnoDetails(e), cause: e });
  }
  if (process.platform !== 'linux') return { fd, prefix: dir };
  let actual: string | null;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return { fd, prefix: dir };
  }
  if (actual !== dir || !guard.admitsParentOf(actual, target, 'write')) {
    closeSync(fd);
    throw new HashlineError('link_swapped', linkSwapped(display), { details: { opened: actual } });
  }
  return { fd, prefix: `/proc/self/fd/${fd}` };
}

/** Creates and fills the temporary file of `p` (not yet synced). */
async function writeTemp(p: Pending): Promise<void> {
  const { rp, data } = p.item;
  let mode = p.item.mode;
  let owner = p.item.owner;
  if (mode === undefined || (process.getuid?.() === 0 && owner === undefined)) {
    const st = await fsp.lstat(`${p.anchor.prefix}/${path.basename(rp.real)}`);
    if (st.isSymbolicLink()) throw new HashlineError('link_swapped', linkSwapped(rp.display));
    if (st.isDirectory()) throw new HashlineError('is_directory', `\`${rp.display}\` is a directory`);
    if (!st.isFile()) throw new HashlineError('not_regular_file', `\`${rp.display}\` is not a regular file`);
    mode ??= st.mode;
    owner = st;
  }
  const fd = await openAsync(p.temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  p.fd = fd;
  let off = 0;
  while (off < data.length) off += writeSync(fd, data, off, data.length - off, off);
  if (owner && (owner.uid !== 0 || owner.gid !== 0)) {
    try {
      fchownSync(fd, owner.uid, owner.gid);
    } catch {
      // keeping the owner is best effort
    }
  }
  fchmodSync(fd, mode & REWRITE_KEEPS);
}

function closeFd(p: Pending): void {
  const fd = p.fd;
  p.fd = undefined;
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

async function discard(p: Pending): Promise<void> {
  closeFd(p);
  await fsp.unlink(p.temp).catch(() => undefined);
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
  const durable = options.durable ?? guard.durable;
  const limit = options.concurrency ?? 32;
  const failed: Array<{ rp: ResolvedPath; error: HashlineError }> = [];
  const fail = async (p: Pending | BatchWrite, e: unknown) => {
    const item = 'item' in p ? p.item : p;
    if ('item' in p) await discard(p);
    const err = toHashlineError(e);
    const coded = err.code === 'internal' ? new HashlineError('io_error', `failed to write \`${item.rp.display}\`: ${err.message}`, { details: errnoDetails(e), cause: e }) : err;
    failed.push({ rp: item.rp, error: coded });
  };
  const anchors = new Map<string, Anchor>();
  let pending: Pending[] = [];
  try {
    for (const item of items) {
      const dir = path.dirname(item.rp.real);
      let anchor = anchors.get(dir);
      try {
        if (!anchor) {
          // (every item's path was admitted by the guard: an anchor admitted for one name in `dir` serves the others)
          anchor = openAnchor(guard, dir, item.rp.display, item.rp.real);
          anchors.set(dir, anchor);
        }
      } catch (e) {
        await fail(item, e);
        continue;
      }
      pending.push({ item, anchor, temp: `${anchor.prefix}/${path.basename(tempNameFor(item.rp.real))}`, fd: undefined });
    }
    const keep = async (phase: (p: Pending) => Promise<void>) => {
      const ok = new Set<Pending>();
      await pool(pending, limit, async (p) => {
        try {
          await phase(p);
          ok.add(p);
        } catch (e) {
          await fail(p, e);
        }
      });
      pending = pending.filter((p) => ok.has(p));
      if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    };
    await keep(writeTemp);
    if (durable) await keep((p) => fsyncAsync(p.fd!));
    const touched = new Set<string>();
    await keep(async (p) => {
      closeFd(p);
      await fsp.rename(p.temp, `${p.anchor.prefix}/${path.basename(p.item.rp.real)}`);
      touched.add(path.dirname(p.item.rp.real));
    });
    const written = pending.map((p) => p.item.rp);
    pending = [];
    if (durable && options.syncDirectories !== false) await syncDirectories(touched, limit);
    return { written, failed, directories: [...touched] };
  } finally {
    await Promise.all(pending.map(discard));
    for (const a of anchors.values()) {
      try {
        closeSync(a.fd);
      } catch {
        // already closed
      }
    }
  }
}
