// One member of GET /v1/fs/tar's listing (tar-walk.ts) that the writer opens itself when its turn
// comes: shared by the walk and its two-thread slices (tar-walk-slices.ts).

/** A member left for the writer: a file opened again when its turn comes, or a directory or link whose header did not fit the hold. */
export interface TreeEntry {
  /** Relative to the archived directory ('' for the directory itself). */
  rel: string;
  abs: string;
  kind: 'dir' | 'file' | 'link';
  /** A directory's or link's permission bits and a link's time, from an lstat through the parent's descriptor. */
  mode?: number;
  mtimeMs?: number;
  /** A link's target, read through the parent's descriptor. */
  target?: string;
}
