// One change of a batch (what a caller asks for) and its outcome (what the batch reports), shared by
// the batch commit (batch-commit.ts) and its steps (batch-steps.ts).

import type { ResolvedPath } from '../guard/path-guard.js';

export type FileChange =
  | {
      kind: 'write'; rp: ResolvedPath; bytes: Uint8Array; expectedSha256?: string | undefined; mode?: number; owner?: { uid: number; gid: number }; createParents?: boolean;
      /** The bytes whose SHA-256 is `expectedSha256`, as the caller read them: the preflight compares them instead of hashing. */
      expectedBytes?: Uint8Array | undefined;
    }
  | { kind: 'delete'; rp: ResolvedPath; expectedSha256?: string | undefined; removeEmptyParents?: boolean }
  | { kind: 'rename'; from: ResolvedPath; to: ResolvedPath; expectedSha256?: string | undefined; createParents?: boolean }
  | { kind: 'chattr'; rp: ResolvedPath; mode?: number | undefined; owner?: { uid: number; gid: number } | undefined; expectedSha256?: string | undefined };

export interface ChangeOutcome {
  path: string;
  kind: FileChange['kind'];
  sha256Before?: string;
  sha256After?: string;
  /** write: the file's stat key (io/read/read-verified-sync.ts statKey) right after it, under the batch's locks. */
  keyAfter?: string;
  /** A write made a new file. */
  created?: boolean;
  /** The bytes the file held before, when the caller asked (`keepBefore`) and it was no larger. */
  before?: Uint8Array;
  /** rename: where the file went. */
  destination?: string;
  /** write, rename: parent directories the change created (outermost first). */
  madeDirs?: string[];
  /** chattr: the mode and owner before and after. */
  attributes?: { before: Attributes; after: Attributes };
  /** delete: parent directories left empty and removed after the batch. */
  removedDirs?: string[];
}

/** A file's mode and owner, as chattr reports them before and after. */
export interface Attributes {
  mode: number;
  uid: number;
  gid: number;
}
