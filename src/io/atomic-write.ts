// Atomic, durable replacement of a file: write a temporary file in the same directory, fsync it,
// give it the old file's mode (and owner where permitted), rename it over the target, fsync the
// directory. The temporary file is removed on every failure. Writes go to the resolved real path,
// so writing through an in-bounds symbolic link updates its target and keeps the link.

import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { HashlineError } from '../core/errors.js';
import { linkSwapped } from '../core/messages/guard.js';
import { descriptorPath } from './open-verified.js';
import type { PathGuard, ResolvedPath } from './path-guard.js';

export interface AtomicWriteOptions {
  /** Mode for the file; default: the existing file's mode, or 0o666 less the umask for a new file. */
  mode?: number;
  /** Create missing parent directories (inside the guard's scope). Default false. */
  createParents?: boolean;
  /** fsync the file and its directory. Default true. */
  durable?: boolean;
  signal?: AbortSignal;
  /** Refuse if the target exists (create-only). */
  exclusive?: boolean;
}

export interface AtomicWriteResult {
  created: boolean;
  mode: number;
  bytes: number;
}

export const TEMP_MARKER = '.hashline-tmp-';

export function tempNameFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}${TEMP_MARKER}${randomBytes(6).toString('hex')}`);
}

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new HashlineError('aborted', 'aborted');
}

async function ensureParents(guard: PathGuard, rp: ResolvedPath): Promise<string[]> {
  const made: string[] = [];
  const dir = path.dirname(rp.real);
  const missing: string[] = [];
  for (let d = dir; d !== '/'; d = path.dirname(d)) {
    try {
      const st = await fsp.lstat(d);
      if (!st.isDirectory()) {
        throw new HashlineError('not_a_directory', `\`${guard.display(d)}\` is not a directory`);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      missing.unshift(d);
    }
  }
  for (const d of missing) {
    if (!guard.admitsReal(d, 'write')) {
      throw new HashlineError('path_outside_root', `permission denied: cannot create \`${guard.display(d)}\``);
    }
    await fsp.mkdir(d);
    made.push(d);
  }
  return made;
}

async function writeAll(handle: FileHandle, data: Uint8Array | AsyncIterable<Uint8Array>, signal?: AbortSignal): Promise<number> {
  if (data instanceof Uint8Array) {
    await handle.write(data, 0, data.length, 0);
    return data.length;
  }
  let total = 0;
  for await (const chunk of data) {
    abortIfNeeded(signal);
    await handle.write(chunk, 0, chunk.length, total);
    total += chunk.length;
  }
  return total;
}

async function fsyncDir(dir: string): Promise<void> {
  let h: FileHandle | undefined;
  try {
    h = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    await h.sync();
  } catch {
    // some file systems refuse fsync on directories; the rename itself is still atomic
  } finally {
    await h?.close().catch(() => undefined);
  }
}

/** Replaces (or creates) the file at `rp.real` with `data`, atomically. */
export async function writeAtomic(
  guard: PathGuard,
  rp: ResolvedPath,
  data: Uint8Array | AsyncIterable<Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  abortIfNeeded(options.signal);
  const target = rp.real;
  const dir = path.dirname(target);
  let existing: import('node:fs').Stats | null = null;
  try {
    existing = await fsp.lstat(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (existing !== null) {
    if (options.exclusive) throw new HashlineError('io_error', `\`${rp.display}\` already exists`, { details: { path: rp.display } });
    if (existing.isSymbolicLink()) throw new HashlineError('link_swapped', linkSwapped(rp.display));
    if (existing.isDirectory()) throw new HashlineError('is_directory', `\`${rp.display}\` is a directory`);
    if (!existing.isFile()) throw new HashlineError('not_regular_file', `\`${rp.display}\` is not a regular file`);
  }
  const madeDirs = options.createParents ? await ensureParents(guard, rp) : [];
  const mode = (options.mode ?? (existing ? existing.mode : 0o666 & ~process.umask())) & 0o7777;
  const temp = tempNameFor(target);
  let handle: FileHandle | undefined;
  let renamed = false;
  try {
    try {
      handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new HashlineError('not_found', `cannot write \`${rp.display}\`: its parent directory does not exist`, { cause: e });
      }
      throw new HashlineError('io_error', `failed to write \`${rp.display}\`: ${(e as Error).message}`, { cause: e });
    }
    const opened = await descriptorPath(handle.fd);
    if (opened !== null && (path.dirname(opened) !== dir || !guard.admitsReal(opened, 'write'))) {
      throw new HashlineError('link_swapped', linkSwapped(rp.display), { details: { opened } });
    }
    const bytes = await writeAll(handle, data, options.signal);
    await handle.chmod(mode);
    if (existing && process.getuid?.() === 0 && (existing.uid !== 0 || existing.gid !== 0)) {
      await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    }
    if (options.durable !== false) await handle.sync();
    await handle.close();
    handle = undefined;
    abortIfNeeded(options.signal);
    if (options.exclusive) {
      // link() fails if the target appeared meanwhile: create-only without a window.
      await fsp.link(temp, target).catch((e) => {
        throw new HashlineError('io_error', `\`${rp.display}\` already exists`, { cause: e });
      });
      await fsp.unlink(temp);
    } else {
      await fsp.rename(temp, target);
    }
    renamed = true;
    if (options.durable !== false) await fsyncDir(dir);
    return { created: existing === null, mode, bytes };
  } catch (e) {
    await handle?.close().catch(() => undefined);
    if (!renamed) {
      await fsp.unlink(temp).catch(() => undefined);
      for (const d of madeDirs.reverse()) await fsp.rmdir(d).catch(() => undefined);
    }
    if (e instanceof HashlineError) throw e;
    throw new HashlineError('io_error', `failed to write \`${rp.display}\`: ${(e as Error).message}`, { cause: e });
  }
}
