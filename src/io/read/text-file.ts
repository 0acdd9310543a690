// Loading a guarded file as a TextDoc (with its tag and mode) and saving a TextDoc atomically.
// Whole-file operations (edit, write, rollback, rewrite) use these; windowed reads stream instead.

import { HashlineError } from '../../core/errors/errors.js';
import { docTag, parseDocAndText, serializeDoc, type TextDoc } from '../../core/text/text-doc.js';
import { writeAtomic, type AtomicWriteOptions, type AtomicWriteResult } from '../atomic-write.js';
import { openVerified } from '../guard/open-verified.js';
import { readFdSync, readVerifiedSync, readVerifiedSyncWith } from './read-verified-sync.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import type { WrittenTexts } from './written-texts.js';
import type { Scope } from '../../core/config/path-policy.js';

/** Whole-file operations refuse files larger than this (windowed reads have no such limit). */
export const MAX_WHOLE_FILE_BYTES = 64 * 1024 * 1024;

export interface LoadedFile {
  readonly rp: ResolvedPath;
  readonly bytes: Uint8Array;
  readonly doc: TextDoc;
  /** LF-normalized, BOM-stripped text (what tags and edits are computed on). */
  readonly text: string;
  readonly tag: string;
  readonly mode: number;
  /** A NUL byte in the first 8 KiB: the file is binary. */
  readonly binary: boolean;
}

/** Files up to this size are loaded with synchronous verified calls (five thread-pool hops cost more). */
const SYNC_LOAD_BYTES = 1024 * 1024;

/**
 * A buffer reused by loads that compare what they read with what was written (io/read/written-texts.ts):
 * a hit keeps nothing of it, a miss copies the bytes out. Loads are synchronous here, so one is enough.
 */
let scratch = Buffer.allocUnsafeSlow(0);

function readIntoScratch(fd: number, size: number): Buffer {
  if (scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.min(SYNC_LOAD_BYTES, Math.max(size, 2 * scratch.length)));
  return readFdSync(fd, size, scratch);
}

function loaded(rp: ResolvedPath, read: Uint8Array, mode: number, written?: WrittenTexts): LoadedFile {
  // the bytes this process just wrote there: their parse is known
  const known = written?.match(rp.real, read);
  if (known) return { rp, bytes: known.bytes, doc: known.doc, text: known.text, tag: known.tag, mode, binary: read.subarray(0, 8192).includes(0) };
  // bytes read into the shared buffer are copied out before anything keeps them
  const bytes = read.buffer === scratch.buffer ? Buffer.from(read) : read;
  const binary = bytes.subarray(0, 8192).includes(0);
  const { doc, text } = parseDocAndText(bytes);
  return { rp, bytes, doc, text, tag: docTag(doc, bytes), mode, binary };
}

/**
 * Loads `rp` whole with every check. `written`: what this process last wrote to such paths
 * (io/read/written-texts.ts); when the bytes read are those, their known parse is used.
 */
export async function loadTextFile(guard: PathGuard, rp: ResolvedPath, scope: Scope = 'read', written?: WrittenTexts): Promise<LoadedFile> {
  // the common case in one synchronous pass; anything else (missing, large, not a regular file, a
  // refusal) takes the path below, which words every error
  let small;
  try {
    small = written ? readVerifiedSyncWith(guard, rp.real, rp.display, SYNC_LOAD_BYTES, scope, readIntoScratch) : readVerifiedSync(guard, rp.real, rp.display, SYNC_LOAD_BYTES, scope);
  } catch {
    small = null;
  }
  if (small) return loaded(rp, small.bytes, small.mode, written);
  const vh = await openVerified(guard, rp, scope);
  try {
    if (vh.size > MAX_WHOLE_FILE_BYTES) {
      throw new HashlineError('too_large', `\`${rp.display}\` is ${vh.size} bytes, over the ${MAX_WHOLE_FILE_BYTES} byte limit for whole-file operations; read it by line range`, {
        details: { path: rp.display, size: vh.size },
      });
    }
    return loaded(rp, await vh.handle.readFile(), vh.mode, written);
  } finally {
    await vh.handle.close();
  }
}

/** Writes the document's exact bytes atomically (mode and owner kept; see atomic-write). */
export async function saveDoc(guard: PathGuard, rp: ResolvedPath, doc: TextDoc, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
  return writeAtomic(guard, rp, serializeDoc(doc), options);
}
