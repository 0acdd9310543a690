// One identity for a file across the two families: a hashline reply (fs_read, fs_write, fs_edit)
// gains the file's `sha256`, a boundary reply (file_hash, file_read, file_write, file_patch,
// file_rename, file_chattr) the file's `tag`, so an agent switching family passes the other's
// name straight on. Both come from one verified read (io/read/file-identity.ts), and a name is
// added only when the other one it was read with is the reply's own: a file changed since the
// reply was made (or gone, or unreadable) gets nothing added, never a name of other bytes.
// A reply with the bytes in hand (just written) names them without reading the file again: the
// tag of those bytes, added only while the file's stat key (size, mtime, inode, device) is still
// the one taken right after the write, under the write's locks.

import { createHash } from 'node:crypto';
import { fileIdentity, tagOfBytes, type FileIdentity } from '../io/read/file-identity.js';
import { statKeyNow } from '../io/read/read-verified-sync.js';
import type { Engine } from './engine.js';

/** Bytes a reply entry names, in hand: the file's real path and its stat key when it held them. */
export interface InHand {
  readonly real: string;
  readonly bytes: Uint8Array;
  readonly key: string;
  /** The tag of `bytes`, when the caller has it (the history recorded them under it); withTag only. */
  readonly tag?: string | null | undefined;
  /** The SHA-256 of `bytes`, when the caller has it; withSha256 only. */
  readonly sha256?: (() => string) | undefined;
}

async function identityOf(engine: Engine, input: string, signal?: AbortSignal): Promise<FileIdentity | undefined> {
  try {
    const rp = await engine.guard.resolve(input, 'read');
    return rp.exists ? await fileIdentity(engine.guard, rp, signal) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each hashline result whose tag still names the file on disk, with the file's SHA-256 added. A
 * result `inHand` gives (its tag is that of the bytes given) gets their SHA-256 while the file's
 * stat key is the one given; the others are read again.
 */
export async function withSha256<T extends { path: string; file_hash: string }>(
  engine: Engine,
  results: readonly T[],
  signal?: AbortSignal,
  inHand: (r: T, i: number) => InHand | undefined = () => undefined,
): Promise<Array<T & { sha256?: string }>> {
  const out: Array<T & { sha256?: string }> = [];
  for (const [i, r] of results.entries()) {
    const held = r.file_hash === '' ? undefined : inHand(r, i);
    if (held !== undefined) {
      out.push(statKeyNow(held.real) === held.key ? { ...r, sha256: held.sha256?.() ?? createHash('sha256').update(held.bytes).digest('hex') } : r);
      continue;
    }
    const id = r.file_hash === '' ? undefined : await identityOf(engine, r.path, signal);
    out.push(id !== undefined && id.tag === r.file_hash.toUpperCase() ? { ...r, sha256: id.sha256 } : r);
  }
  return out;
}

/**
 * Each boundary entry whose SHA-256 still names the file on disk, with the file's tag added. An
 * entry `inHand` gives (its SHA-256 is that of the bytes given) is tagged from those bytes while
 * the file's stat key is the one given; an entry with a tag (taken from the read its SHA-256
 * came from) is kept as it is; the others are read again.
 */
export async function withTag<T extends { filePath: string; sha256?: string | undefined; tag?: string | undefined }>(
  engine: Engine,
  entries: readonly T[],
  signal?: AbortSignal,
  pathOf: (e: T) => string = (e) => e.filePath,
  inHand: (e: T, i: number) => InHand | undefined = () => undefined,
): Promise<Array<T & { tag?: string }>> {
  const out: Array<T & { tag?: string }> = [];
  for (const [i, e] of entries.entries()) {
    // named from the same read already
    if (e.tag !== undefined) {
      out.push(e);
      continue;
    }
    const held = e.sha256 === undefined ? undefined : inHand(e, i);
    if (held !== undefined) {
      out.push(statKeyNow(held.real) === held.key ? { ...e, tag: held.tag ?? tagOfBytes(held.bytes) } : e);
      continue;
    }
    const id = e.sha256 === undefined ? undefined : await identityOf(engine, pathOf(e), signal);
    out.push(id !== undefined && id.sha256 === e.sha256 ? { ...e, tag: id.tag } : e);
  }
  return out;
}
