// The state of a file a batch changes, as the batch saw it: whether it exists, its SHA-256, size,
// mode, owner and identity (device and inode). The state is taken for every file before the first
// change (the compare-and-swap preflight) and journaled; right before each file's own change the
// file is opened again and both its identity and its hash must still be the journaled ones, so a
// file modified or replaced meanwhile by a process that does not take hashline's locks is never
// changed on the strength of the first look. When the bytes are in hand (the caller read them
// under the same locks, or the preflight kept them), a later look compares the bytes themselves
// instead of hashing them again: the same check, with no second SHA-256 pass.

import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, readFileSync } from 'node:fs';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { staleHidden } from '../../core/messages/write.js';
import { openVerified, openVerifiedSync, type VerifiedFd, type VerifiedHandle } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { readAdmitted } from '../guard/read-admission.js';
import { sha256OfHandle } from '../read/sha256-file.js';
import { readToEndSync } from '../read/read-verified-sync.js';

export interface PresentState {
  exists: true;
  sha256: string;
  size: number;
  /** Type and permission bits as fstat gave them. */
  mode: number;
  uid: number;
  gid: number;
  dev: number;
  ino: number;
  /** The bytes, when the caller asked to keep files up to this size. */
  bytes?: Uint8Array;
}
export type FileState = { exists: false } | PresentState;

function stateOf(vh: VerifiedHandle | VerifiedFd, sha256: string, size: number, bytes?: Uint8Array): PresentState {
  return { exists: true, sha256, size, mode: vh.mode, uid: vh.uid, gid: vh.gid, dev: vh.dev, ino: vh.ino, ...(bytes ? { bytes } : {}) };
}

/** Bytes the state is expected to hold and their SHA-256 (the caller computed it from them). */
export interface KnownBytes {
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/** Files up to this size are read in one synchronous call (page-cache reads of microseconds, no thread-pool round trip). */
const READ_SYNC_MAX = 1024 * 1024;

async function readWhole(vh: VerifiedHandle): Promise<Buffer> {
  return vh.size <= READ_SYNC_MAX ? readFileSync(vh.handle.fd) : await vh.handle.readFile();
}

async function hashOpen(vh: VerifiedHandle, keepUpTo: number, signal?: AbortSignal, known?: KnownBytes): Promise<PresentState> {
  if (known !== undefined && vh.size === known.bytes.length) {
    const bytes = await readWhole(vh);
    // the same bytes have the known hash; other bytes are hashed for what they are
    const sha256 = equalBytes(bytes, known.bytes) ? known.sha256 : createHash('sha256').update(bytes).digest('hex');
    return stateOf(vh, sha256, bytes.length, bytes);
  }
  if (vh.size <= keepUpTo) {
    const bytes = await readWhole(vh);
    return stateOf(vh, createHash('sha256').update(bytes).digest('hex'), bytes.length, bytes);
  }
  const { sha256, size } = await sha256OfHandle(vh.handle, signal, vh.size);
  return stateOf(vh, sha256, size);
}

/** hashOpen of a file up to READ_SYNC_MAX opened by openVerifiedSync, in one synchronous read. */
function hashSmall(vf: VerifiedFd, keepUpTo: number, known?: KnownBytes): PresentState {
  const bytes = readToEndSync(vf.fd, Buffer.allocUnsafe(vf.size));
  if (known !== undefined && vf.size === known.bytes.length) {
    const sha256 = equalBytes(bytes, known.bytes) ? known.sha256 : createHash('sha256').update(bytes).digest('hex');
    return stateOf(vf, sha256, bytes.length, bytes);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return bytes.length <= keepUpTo ? stateOf(vf, sha256, bytes.length, bytes) : stateOf(vf, sha256, bytes.length);
}

/**
 * The file at `rp` as it is now, when it is missing or at most READ_SYNC_MAX bytes: opened, checked
 * and read in synchronous calls (no thread-pool round trip each); undefined for a larger file.
 */
function readSmallState(guard: PathGuard, rp: ResolvedPath, keepUpTo: number, known?: KnownBytes): FileState | undefined {
  let vf: VerifiedFd;
  try {
    vf = openVerifiedSync(guard, rp, 'write');
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return { exists: false };
    throw e;
  }
  try {
    return vf.size <= READ_SYNC_MAX ? hashSmall(vf, keepUpTo, known) : undefined;
  } finally {
    closeSync(vf.fd);
  }
}

/** The file at `rp` as it is now (a verified open: no final link, a regular file, inside the policy). */
export async function readState(guard: PathGuard, rp: ResolvedPath, keepUpTo = -1, signal?: AbortSignal, known?: KnownBytes): Promise<FileState> {
  const small = readSmallState(guard, rp, keepUpTo, known);
  if (small !== undefined) return small;
  let vh: VerifiedHandle;
  try {
    vh = await openVerified(guard, rp, 'write');
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') return { exists: false };
    throw e;
  }
  try {
    return await hashOpen(vh, keepUpTo, signal, known);
  } finally {
    await vh.handle.close();
  }
}

/** True when something (a file, a directory, a link, even a dangling one) is at the path as named or as resolved. */
export async function occupied(rp: ResolvedPath): Promise<boolean> {
  for (const p of new Set([rp.lexical, rp.real])) {
    try {
      // (one metadata call: synchronous, without a thread-pool round trip)
      lstatSync(p);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    }
  }
  return false;
}

export function changedError(rp: ResolvedPath, why: 'changed' | 'replaced' | 'appeared' | 'vanished', expected?: string, actual?: string): HashlineError {
  const text = {
    changed: expected === undefined ? `\`${rp.display}\` changed while the batch was running` : `\`${rp.display}\` changed while the batch was running (expected ${expected}, found ${actual})`,
    replaced: `\`${rp.display}\` was replaced by another file while the batch was running`,
    appeared: `\`${rp.display}\` appeared while the batch was running`,
    vanished: `\`${rp.display}\` disappeared while the batch was running`,
  }[why];
  return new HashlineError('stale_or_missing_hash', `${text}; hash it again and retry`, {
    details: { path: rp.display, reason: why, ...(expected ? { expected } : {}), ...(actual ? { actual } : {}) },
  });
}

/**
 * Opens the file again and proves it is the journaled one: same device and inode, same SHA-256.
 * Returns the open handle (the caller closes it), so a change can be applied through it.
 */
export async function reopenChecked(guard: PathGuard, rp: ResolvedPath, journaled: PresentState, signal?: AbortSignal): Promise<VerifiedHandle> {
  let vh: VerifiedHandle;
  try {
    vh = await openVerified(guard, rp, 'write');
  } catch (e) {
    if (toHashlineError(e).code === 'not_found') throw changedError(rp, 'vanished');
    throw e;
  }
  try {
    if (vh.dev !== journaled.dev || vh.ino !== journaled.ino) throw changedError(rp, 'replaced');
    const now = await hashOpen(vh, journaled.bytes ? journaled.size : -1, signal, journaled.bytes ? { bytes: journaled.bytes, sha256: journaled.sha256 } : undefined);
    if (now.sha256 !== journaled.sha256) {
      // a read-blocked file's hashes never leave: the change is named, not its evidence
      throw readAdmitted(guard, rp) ? changedError(rp, 'changed', journaled.sha256, now.sha256) : changedError(rp, 'changed');
    }
    return vh;
  } catch (e) {
    await vh.handle.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Checks the caller's expected hash against the journaled state (compare-and-swap). For a file the
 * read policy refuses (`hidden`), no reply shows its hash: a mismatch says so without it, and a
 * change that would return the hash unasked (a delete, rename or chattr with no expected hash,
 * when require_hash is off) needs one.
 */
export function checkExpected(
  rp: ResolvedPath,
  state: FileState,
  expected: string | undefined,
  options: { requireHash: boolean; mayCreate: boolean; hidden: boolean },
): void {
  const { requireHash, mayCreate, hidden } = options;
  if (!state.exists) {
    if (!mayCreate) throw new HashlineError('not_found', `\`${rp.display}\` does not exist`, { details: { path: rp.display } });
    if (expected !== undefined) {
      throw new HashlineError('stale_or_missing_hash', `\`${rp.display}\` does not exist, but an expectedSha256 was given`, { details: { path: rp.display, reason: 'unexpected' } });
    }
    return;
  }
  if (expected === undefined) {
    if (requireHash || (hidden && !mayCreate)) {
      throw new HashlineError('stale_or_missing_hash', `\`${rp.display}\` exists: pass its fresh expectedSha256 (from file_hash) to change it`, {
        details: { path: rp.display, reason: 'missing' },
      });
    }
    return;
  }
  if (expected.toLowerCase() !== state.sha256) {
    if (hidden) {
      throw new HashlineError('stale_or_missing_hash', staleHidden(rp.display), { details: { path: rp.display, reason: 'mismatch', expected } });
    }
    throw new HashlineError('stale_or_missing_hash', `Stale file context: expected ${expected}, found ${state.sha256}`, {
      details: { path: rp.display, reason: 'mismatch', expected, actual: state.sha256 },
    });
  }
}
