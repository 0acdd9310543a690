// One file's two names, from one verified read of its bytes: the hashline family's 4-hex tag (of
// its LF, BOM-less text, as io/read/line-reader.ts computes it) and the boundary family's SHA-256
// (of the bytes themselves). Each family's structured replies carry the other's name, so an agent
// that switches family never needs an extra hashing call (tools/file-identity-fields.ts).

import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readlinkSync } from 'node:fs';
import { ByteTagger, tagOfFileBytes } from '../../core/text/byte-tag.js';
import { HashlineError } from '../../core/errors/errors.js';
import { isOpenedPath, openVerified } from '../guard/open-verified.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { CHUNK_BYTES } from './line-reader.js';
import { OPEN_NO_FOLLOW, readToEndSync } from './read-verified-sync.js';
import { HashedChunks, THREAD_HASH_MIN_BYTES } from './hashed-chunks.js';
import { giveShared, isShared, Sha256Job, sha256ThreadIfSpare, takeShared, type Sha256Thread } from './sha256-thread.js';

/** The largest read of one file (a file this size or smaller is read at once). */
const IDENTITY_CHUNK = 1024 * 1024;
/**
 * Files up to this size are read synchronously (open, fstat, descriptor check, read, close cost
 * microseconds each; six thread-pool round trips cost more than reading and hashing a small file).
 */
const SYNC_BYTES = 1024 * 1024;
const HAS_PROC_FD = process.platform === 'linux';
/** Files queued on the SHA-256 thread beyond which a small file is hashed on the calling thread. */
const THREAD_QUEUE = 2;

export interface FileIdentity {
  /** The 4-hex tag of the file's text (what `¶path#TAG` shows). */
  readonly tag: string;
  /** The SHA-256 of the file's bytes, 64 lowercase hex digits (what file_hash returns). */
  readonly sha256: string;
  readonly size: number;
}

/**
 * The buffer small files are read into, kept from one read to the next: fresh memory for each file
 * costs a page fault per 4 KiB as the kernel copies into it, more than the copy itself. Safe to
 * share: its bytes are hashed and let go before the synchronous read returns.
 */
let scratch = Buffer.alloc(0);

/**
 * Reads `fd` from its start to its end (a file grown since its fstat is read on) into the scratch
 * buffer; the result is a view of it, valid until the next read.
 */
function readToEnd(fd: number, size: number): Buffer {
  // one byte more than the size: fewer read means the end was seen
  if (scratch.length < size + 1) scratch = Buffer.allocUnsafe(Math.min(SYNC_BYTES, Math.max(size + 1, 2 * scratch.length, 64 * 1024)) + 1);
  return readToEndSync(fd, scratch);
}

/**
 * The plain case of fileIdentity in one synchronous pass: a regular file of at most SYNC_BYTES,
 * opened without following a final link, whose descriptor is the checked path the read policy
 * admits (the checks of io/guard/open-verified.ts). Null on anything else, errors included: the
 * streamed path then opens it again and decides (and words any refusal).
 */
function smallFileIdentity(guard: PathGuard, rp: ResolvedPath, textOnly: boolean): FileIdentity | HashIdentity | Promise<FileIdentity | HashIdentity> | null {
  if (!HAS_PROC_FD) return null;
  let fd: number;
  try {
    fd = openSync(rp.real, OPEN_NO_FOLLOW);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > SYNC_BYTES) return null;
    if (!isOpenedPath(readlinkSync(`/proc/self/fd/${fd}`), rp.real) || !guard.admitsReal(rp.real, 'read')) return null;
    // a file from THREAD_HASH_MIN_BYTES on, while a core is to spare: its SHA-256 on the thread, unless the thread has work
    // queued already (this thread then hashes it itself: both cores busy, neither waiting) or no
    // shared buffer is free
    let thread = st.size >= THREAD_HASH_MIN_BYTES ? sha256ThreadIfSpare() : undefined;
    if (thread !== undefined && thread.queued >= THREAD_QUEUE) thread = undefined;
    const shared = thread === undefined ? undefined : takeShared();
    if (shared !== undefined) return identityOnThread(thread!, fd, shared, textOnly);
    const bytes = readToEnd(fd, st.size);
    return textOnly && isBinaryHead(bytes, 0) ? hashOnly(bytes) : identityOfBytes(bytes);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `fd` (a verified small file) into shared memory and hands the bytes to the SHA-256
 * thread, then tags them here meanwhile: the digest and the tag are of the same bytes, read once.
 * The read is synchronous (the caller's checks hold for it); the digest is awaited after.
 */
function identityOnThread(thread: Sha256Thread, fd: number, buf: Buffer, textOnly: boolean): Promise<FileIdentity | HashIdentity> {
  // SYNC_BYTES + 1 bytes (SHARED_BYTES): room for the largest file this path reads and the byte that shows its end
  let bytes: Buffer;
  try {
    bytes = readToEndSync(fd, buf);
  } catch (e) {
    giveShared(buf);
    throw e;
  }
  // a file that grew past the buffer since its fstat was read into plain memory: hashed here
  if (!isShared(bytes)) {
    giveShared(buf);
    return Promise.resolve(textOnly && isBinaryHead(bytes, 0) ? hashOnly(bytes) : identityOfBytes(bytes));
  }
  const sha = new Sha256Job(thread).end(bytes);
  const tag = textOnly && isBinaryHead(bytes, 0) ? undefined : tagOfBytes(bytes);
  // a thread lost meanwhile: the same bytes, still in the buffer, are hashed here
  return sha
    .catch(() => createHash('sha256').update(bytes).digest('hex'))
    .then((sha256) => {
      giveShared(buf);
      return tag === undefined ? { sha256, size: bytes.length } : { tag, sha256, size: bytes.length };
    });
}

/** A file's SHA-256, with its tag unless it is binary (see fileIdentity's `textOnly`). */
export interface HashIdentity {
  readonly tag?: string | undefined;
  readonly sha256: string;
  readonly size: number;
}

/** The bytes the project's binary rule looks at: a NUL in a file's first 8 KiB makes it binary. */
const BINARY_HEAD = 8192;

/** True when `chunk`, read at offset `at` of a file, puts a NUL in the file's first 8 KiB. */
function isBinaryHead(chunk: Uint8Array, at: number): boolean {
  return at < BINARY_HEAD && chunk.subarray(0, BINARY_HEAD - at).includes(0);
}

function hashOnly(bytes: Uint8Array): HashIdentity {
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

/**
 * The tag and SHA-256 of the file `rp` names: a small file read at once, a larger one streamed
 * (constant memory). With `textOnly`, a binary file (a NUL in its first 8 KiB) gets its SHA-256
 * alone: its tag would cost a decode of every byte and serves no edit.
 */
export async function fileIdentity(guard: PathGuard, rp: ResolvedPath, signal?: AbortSignal): Promise<FileIdentity>;
export async function fileIdentity(guard: PathGuard, rp: ResolvedPath, signal: AbortSignal | undefined, textOnly: true): Promise<HashIdentity>;
export async function fileIdentity(guard: PathGuard, rp: ResolvedPath, signal?: AbortSignal, textOnly = false): Promise<FileIdentity | HashIdentity> {
  if (signal?.aborted) throw new HashlineError('aborted', 'aborted');
  const small = smallFileIdentity(guard, rp, textOnly);
  if (small !== null) return await small;
  const vh = await openVerified(guard, rp, 'read');
  let chunks: HashedChunks | undefined;
  try {
    // buffers no larger than the file (plus one byte to see its end), up to IDENTITY_CHUNK; the
    // SHA-256 of a large file runs on its own thread while this one tags the same bytes
    chunks = new HashedChunks(vh.handle, Math.min(IDENTITY_CHUNK, Math.max(vh.size + 1, CHUNK_BYTES)), vh.size);
    let tagger: ByteTagger | undefined = new ByteTagger();
    for (;;) {
      const chunk = await chunks.next(signal);
      if (chunk === null) break;
      if (textOnly && tagger !== undefined && isBinaryHead(chunk, chunks.bytesRead - chunk.length)) tagger = undefined;
      tagger?.push(chunk);
    }
    const sha256 = await chunks.digest();
    const size = chunks.bytesRead;
    return tagger === undefined ? { sha256, size } : { tag: tagger.end(), sha256, size };
  } catch (e) {
    chunks?.dispose();
    throw e;
  } finally {
    await vh.handle.close();
  }
}

/** The 4-hex tag of bytes in memory (what line-reader.ts gives for the same bytes on disk). */
export function tagOfBytes(bytes: Uint8Array): string {
  return tagOfFileBytes(bytes);
}

/** The tag and SHA-256 of bytes in memory. */
export function identityOfBytes(bytes: Buffer): FileIdentity {
  return { tag: tagOfBytes(bytes), sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
