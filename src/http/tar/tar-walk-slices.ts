// The walk's files in archive order, packed on two threads: the walk cuts each directory's files
// into slices (tar-pack-files.ts); while the read thread (tar-read-pool.ts) has fewer than
// REMOTE_AHEAD of this walk's slices, the next one goes to it, else the walk packs it itself. Every
// item (a slice, or a directory's or link's entry) is put into the arena (tar-pack-arena.ts) in
// order as soon as everything before it is there (the caps were checked by the listing). A
// directory's descriptor is closed only once its listing is done and no slice of it is still with
// the thread, so a name is never opened through a descriptor number that was reused.

import { closeSync } from 'node:fs';
import type { PackArena } from './tar-pack-arena.js';
import { packSlice, type FileSlice, type PackedSlice } from './tar-pack-files.js';
import { tarReadPool, type TarReadPool } from './tar-read-pool.js';
import type { TreeEntry } from './tar-tree-entry.js';

/** A directory the walk opened and checked; its descriptor names its files for the slices. */
export interface OpenDir {
  fd: number;
  prefix: string;
  abs: string;
  /** Slices of it still with the read thread. */
  users: number;
  listed: boolean;
}

interface SliceItem {
  slice: FileSlice;
  dir: OpenDir;
  id: number;
  packed: PackedSlice | undefined;
}

type Item = { entry: TreeEntry } | SliceItem;

export const SLICE_FILES = 128;
const REMOTE_AHEAD = 4;
/** Items packed but not yet in the arena (waiting for a slice before them) at most. */
const MAX_AHEAD = 16;

export class WalkSlices {
  private readonly items: Array<Item | undefined> = [];
  private head = 0;
  private readonly remote: SliceItem[] = [];

  constructor(
    private readonly arena: PackArena<TreeEntry>,
    private readonly packOther: (e: TreeEntry) => void,
    private readonly pool: TarReadPool = tarReadPool,
  ) {}

  /** A directory's or link's entry, after everything added before it. */
  other(entry: TreeEntry): void {
    this.items.push({ entry });
    this.drain();
  }

  /** The files `names` of `dir` (their archive names `rels`, each `relDir + name`), after everything added before them. */
  files(dir: OpenDir, relDir: string, names: string[], rels: string[]): void {
    const item: SliceItem = { slice: { prefix: dir.prefix, names, rels, relDir }, dir, id: -1, packed: undefined };
    if (this.remote.length < REMOTE_AHEAD) item.id = this.pool.submit(item.slice);
    if (item.id >= 0) {
      dir.users++;
      this.remote.push(item);
    } else item.packed = packSlice(item.slice);
    this.items.push(item);
    this.drain();
  }

  /** `dir`'s listing is done: its descriptor is closed now, or when its last slice comes back. */
  listed(dir: OpenDir): void {
    dir.listed = true;
    if (dir.users === 0) closeSync(dir.fd);
  }

  /** Waits while the read thread has as many of this walk's slices as it takes (so the next one goes to it). */
  async threadRoom(): Promise<void> {
    while (this.remote.length >= REMOTE_AHEAD) {
      const seen = this.collect();
      this.drain();
      if (this.remote.length >= REMOTE_AHEAD) await this.pool.wait(seen);
    }
  }

  /** Waits while too many items wait for a slice before them (the read-ahead stays bounded). */
  async pace(): Promise<void> {
    while (this.items.length - this.head > MAX_AHEAD) await this.waitHead();
  }

  /** Everything into the arena. */
  async finish(): Promise<void> {
    while (this.head < this.items.length) await this.waitHead();
  }

  /** Waits for every slice still with the thread (and closes the descriptors they held); for the way out, also on a throw. */
  async settle(): Promise<void> {
    while (this.remote.length > 0) {
      const seen = this.collect();
      if (this.remote.length > 0) await this.pool.wait(seen);
    }
  }

  private async waitHead(): Promise<void> {
    const seen = this.collect();
    this.drain();
    if (this.head < this.items.length && this.remote.length > 0) await this.pool.wait(seen);
  }

  /** Takes the thread's replies for this walk; a lost slice is packed here (its directory is still open). */
  private collect(): number {
    const seen = this.pool.collect();
    for (let i = 0; i < this.remote.length; ) {
      const item = this.remote[i]!;
      const r = this.pool.take(item.id);
      if (r === undefined) {
        i++;
        continue;
      }
      item.packed = r === 'lost' ? packSlice(item.slice) : r;
      this.remote.splice(i, 1);
      if (--item.dir.users === 0 && item.dir.listed) closeSync(item.dir.fd);
    }
    return seen;
  }

  /** Puts the items whose turn it is into the arena. */
  private drain(): void {
    if (this.remote.length > 0) this.collect();
    while (this.head < this.items.length) {
      const item = this.items[this.head]!;
      if ('entry' in item) this.packOther(item.entry);
      else if (item.packed === undefined) return;
      else this.place(item);
      this.items[this.head++] = undefined;
    }
  }

  private place(item: SliceItem): void {
    const { sizes, starts, ends, bytes } = item.packed!;
    const { names, rels } = item.slice;
    for (let i = 0; i < sizes.length; i++) {
      const size = sizes[i]!;
      if (size < 0) continue; // gone, a link or not a regular file now
      if (starts[i]! >= 0 && this.arena.adopt(bytes, starts[i]!, ends[i]!)) continue;
      this.arena.add({ rel: rels[i]!, abs: `${item.dir.abs}/${names[i]}`, kind: 'file' });
    }
  }
}
