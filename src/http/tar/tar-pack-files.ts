// The files of one directory's slice, packed for GET /v1/fs/tar: each file is opened through the
// directory's descriptor path (`/proc/<pid>/fd/N/name`, the directory the walk opened and checked
// and still holds open) without following a final link, fstat'ed (a regular file, or it is left
// out), and, when small, its header, content and padding are written into one buffer for the
// whole slice. The same code runs on the walk's thread and on the read thread (tar-read-pool.ts).

import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { HEADER_ROOM, memberName, padding, writeHeader, zero } from './tar-header.js';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** Files up to this size are read during the walk (while the request's hold allows: tar-walk.ts). */
export const PREFETCH_FILE_LIMIT = 256 * 1024;
/** At most this many bytes of one slice are read ahead; the files past it are read when their turn comes. */
const SLICE_BYTES = 1024 * 1024;

/** Files of one directory: names under `prefix` (its descriptor path), `rels` their archive names. */
export interface FileSlice {
  prefix: string;
  names: string[];
  rels: string[];
  /** Every `rels[i]` is `relDir + names[i]` (what the read thread is sent instead of `rels`). */
  relDir: string;
  /** Only the files' sizes are wanted (listSizes: the listing's byte cap), nothing is opened or packed. */
  sizesOnly?: boolean;
}

/** Each file's size from an lstat through the directory's descriptor path; -1 when it is gone or not a regular file now. */
export function listSizes(prefix: string, names: readonly string[]): number[] {
  const sizes: number[] = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    let size = -1;
    try {
      const st = lstatSync(prefix + names[i], { throwIfNoEntry: false });
      if (st !== undefined && st.isFile()) size = st.size;
    } catch {
      // not listable now: left out of the count
    }
    sizes[i] = size;
  }
  return sizes;
}

/**
 * What became of each file of a slice: its size (-1 when gone, a link or not a regular file), and
 * for a packed one where its member (header, content, padding) is in `bytes`: `starts[i]` to
 * `ends[i]` (-1 when it was not packed: over the size limit, over the slice's bytes, or it shrank).
 */
export interface PackedSlice {
  sizes: ArrayLike<number>;
  starts: ArrayLike<number>;
  ends: ArrayLike<number>;
  bytes: Buffer;
}

/**
 * `at` opened without following a final link (and without blocking on a fifo) and fstat'ed; null
 * when it is gone, a link, not a regular file, or `accept` refuses the descriptor (or throws).
 * The caller closes the descriptor.
 */
export function openRegular(at: string, accept?: (fd: number) => boolean): { fd: number; st: Stats } | null {
  let fd: number;
  try {
    fd = openSync(at, OPEN_FLAGS);
  } catch {
    return null; // removed, or replaced by a link, since it was listed
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile() && (!accept || accept(fd))) return { fd, st };
  } catch {
    // refused: closed below
  }
  closeSync(fd);
  return null;
}

/** Reads `size` bytes of `fd` from its start into `buf` at `off`; false when the file is shorter now. */
export function readFully(fd: number, buf: Buffer, off: number, size: number): boolean {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, off + got, size - got, got);
    if (n === 0) return false;
    got += n;
  }
  return true;
}

/** Opens, checks and packs the files of `slice` (every descriptor it opens is closed before it returns). */
export function packSlice(slice: Omit<FileSlice, 'relDir'>): { sizes: number[]; starts: number[]; ends: number[]; bytes: Buffer } {
  const n = slice.names.length;
  const opened: Array<{ fd: number; st: Stats } | null> = new Array(n);
  const sizes: number[] = new Array(n);
  const starts: number[] = new Array(n).fill(-1);
  const ends: number[] = new Array(n).fill(-1);
  let want = 0;
  try {
    for (let i = 0; i < n; i++) {
      const o = openRegular(slice.prefix + slice.names[i]);
      opened[i] = o;
      const size = o === null ? -1 : o.st.size;
      sizes[i] = size;
      if (size >= 0 && size <= PREFETCH_FILE_LIMIT && want + size <= SLICE_BYTES) want += 512 + size + padding(size);
    }
    // room for every member with a plain header, plus one long-name header; a member that does not fit is left for later
    const bytes = Buffer.allocUnsafeSlow(want > 0 ? want + HEADER_ROOM : 0);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const o = opened[i];
      if (o === null || o === undefined) continue;
      const size = o.st.size;
      if (size > PREFETCH_FILE_LIMIT || bytes.length - at < HEADER_ROOM + size + padding(size)) continue;
      const body = at + writeHeader(bytes, at, 'File', memberName(slice.rels[i]!), o.st.mode & 0o7777, size, o.st.mtimeMs);
      const end = body + size + padding(size);
      // a file that shrank since the fstat is opened again when its turn comes
      if (!readFully(o.fd, bytes, body, size)) continue;
      zero(bytes, body + size, end);
      starts[i] = at;
      ends[i] = end;
      at = end;
    }
    return { sizes, starts, ends, bytes };
  } finally {
    for (const o of opened) if (o) closeSync(o.fd);
  }
}
