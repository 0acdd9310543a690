// The pre-scan's copy of a small archive (PUT /v1/fs/tar): while tar-extract.ts lists and checks
// the archive, the members are kept in archive order with their data, as long as every file member
// is small (up to SMALL_MEMBER) and their data together stays within KEEP_BYTES. When the whole
// archive was kept, its members are written from this copy, and the archive is not parsed a second
// time; otherwise the copy is dropped at the first member that does not fit, and the extraction
// parses the spooled archive again as before. Either way the members written, their order and
// their bytes are the same.

import type { ReadEntry } from 'tar';

/** File members up to this size are read into memory (tar-member-writer.ts writes them so). */
export const SMALL_MEMBER = 1024 * 1024;
/** The most data the copy holds (the writer's bound on data in flight). */
export const KEEP_BYTES = 32 * 1024 * 1024;
export const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** A member taken from the pre-scan's copy: its header fields and, for a file, its data. */
export interface KeptMember {
  readonly kept: true;
  readonly path: string;
  readonly type: string;
  readonly mode: number | undefined;
  readonly size: number;
  readonly linkpath: string | undefined;
  data: Buffer | undefined;
}

export class KeptMembers {
  private list: KeptMember[] = [];
  private bytes = 0;
  private complete = true;

  /** Keeps `entry` (call from the parser's entry callback, before its data flows) while the archive fits. */
  take(entry: ReadEntry): void {
    if (!this.complete) return;
    const size = entry.size ?? 0;
    const file = FILE_TYPES.has(entry.type);
    if (file && (size > SMALL_MEMBER || this.bytes + size > KEEP_BYTES)) return this.drop();
    const m: KeptMember = { kept: true, path: entry.path, type: entry.type, mode: entry.mode, size, linkpath: entry.linkpath, data: undefined };
    this.list.push(m);
    if (!file) return;
    this.bytes += size;
    const chunks: Buffer[] = [];
    entry.on('data', (c: Buffer) => chunks.push(c));
    entry.on('end', () => {
      const data = Buffer.concat(chunks);
      // the parser's chunks are views of its read buffers: the copy is the member's own
      if (data.length === size) m.data = data;
      else this.drop();
    });
  }

  /** Every member with its data, in archive order; undefined when the archive was not kept whole. */
  members(): KeptMember[] | undefined {
    if (!this.complete || this.list.some((m) => FILE_TYPES.has(m.type) && m.data === undefined)) return undefined;
    return this.list;
  }

  private drop(): void {
    this.complete = false;
    this.list = [];
  }
}
