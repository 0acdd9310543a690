// Verified whole-file reads for batches of small files (a structural rewrite over thousands of
// files): the same checks as io/guard/open-verified.ts (the final component opened without following
// links, a regular file, the descriptor's real path is the checked one and inside the policy), made
// with synchronous calls, which for small files cost a fraction of a thread-pool round trip. The
// caller yields between files; files above SYNC_READ_LIMIT go through the asynchronous path.

import { closeSync, lstatSync, type BigIntStats } from 'node:fs';
import { HashlineError } from '../../core/errors/errors.js';
import type { Scope } from '../../core/config/path-policy.js';
import { openCheckedSync, openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { readToEndSync } from './read-verified-sync.js';
import { MAX_WHOLE_FILE_BYTES } from './text-file.js';

/** Files up to this size are read with synchronous calls. */
export const SYNC_READ_LIMIT = 1024 * 1024;

/** What identifies one state of a file on disk (a write changes ctime, which no caller can set). */
export interface FileStamp {
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

export interface ReadBytes {
  readonly bytes: Uint8Array;
  readonly mode: number;
  readonly stamp: FileStamp;
}

const stampOf = (st: BigIntStats): FileStamp => ({ ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** The stamp of the file at `real` now (links not followed), or null when it is gone. */
export function currentStamp(real: string): FileStamp | null {
  try {
    return stampOf(lstatSync(real, { bigint: true }));
  } catch {
    return null;
  }
}

function tooLarge(rp: ResolvedPath, size: number): HashlineError {
  return new HashlineError('too_large', `\`${rp.display}\` is ${size} bytes, over the ${MAX_WHOLE_FILE_BYTES} byte limit for whole-file operations; read it by line range`, {
    details: { path: rp.display, size },
  });
}

/** The synchronous read of a small file, or 'large' when it is over SYNC_READ_LIMIT. */
function readSmall(guard: PathGuard, rp: ResolvedPath, scope: Scope): ReadBytes | 'large' {
  const { fd, st } = openCheckedSync(guard, rp, scope, true);
  try {
    if (st.size > BigInt(SYNC_READ_LIMIT)) return 'large';
    // read until EOF: the file may have grown since fstat
    const bytes = readToEndSync(fd, Buffer.allocUnsafe(Math.max(Number(st.size), 4096)), MAX_WHOLE_FILE_BYTES);
    if (bytes.length > MAX_WHOLE_FILE_BYTES) throw tooLarge(rp, bytes.length);
    return { bytes, mode: Number(st.mode), stamp: stampOf(st) };
  } finally {
    closeSync(fd);
  }
}

/** Reads the whole file `rp` names, verified as open-verified does. */
export async function readVerifiedBytes(guard: PathGuard, rp: ResolvedPath, scope: Scope): Promise<ReadBytes> {
  const small = readSmall(guard, rp, scope);
  if (small !== 'large') return small;
  const vh = await openVerified(guard, rp, scope);
  try {
    if (vh.size > MAX_WHOLE_FILE_BYTES) throw tooLarge(rp, vh.size);
    const st = await vh.handle.stat({ bigint: true });
    const bytes = await vh.handle.readFile();
    if (bytes.length > MAX_WHOLE_FILE_BYTES) throw tooLarge(rp, bytes.length);
    return { bytes, mode: vh.mode, stamp: stampOf(st) };
  } finally {
    await vh.handle.close();
  }
}
