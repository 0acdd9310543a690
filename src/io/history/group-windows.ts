// What the one-by-one writes of history-sql.ts (recordVersion, anchorVersion) would find in the
// store at each write of a group, without reading per write: the store's most recently used paths
// (the window of paths, newest first) and every head of the group's paths (newest first), read
// once at the start of the group, then moved as each write of the group would move them. A path
// not among the window's paths has no versions to see; a path's head past its newest
// `maxVersionsPerPath` is not among its versions. Sequence numbers are the ones the writes take,
// one after the other, from the root's counter as it was when the group started.

import type { WindowLimits } from './history-sql.js';

export class GroupWindows {
  /** The next sequence number a write takes. */
  private next: number;

  /**
   * `top`: the root's most recently used paths, newest first (at least as many as any write's
   * `maxPaths`); `heads`: every head of the group's paths, each path's newest first; `seq`: the
   * root's counter.
   */
  constructor(
    private readonly top: string[],
    private readonly heads: Map<string, string[]>,
    private readonly topSize: number,
    seq: number,
  ) {
    this.next = seq + 1;
  }

  /** Sequence numbers taken so far. */
  taken(start: number): number {
    return this.next - 1 - start;
  }

  /** The store holds this text as a head of `path` (in the window or not). */
  known(path: string, sha256: string): boolean {
    return this.heads.get(path)?.includes(sha256) ?? false;
  }

  /** The text is among the versions of `path` the tools see (loadRankedWindow would list it). */
  inWindow(path: string, sha256: string, limits: WindowLimits): boolean {
    const rank = this.top.indexOf(path);
    if (rank < 0 || rank >= limits.maxPaths) return false;
    const hs = this.heads.get(path) ?? [];
    const at = hs.indexOf(sha256);
    return at >= 0 && at < limits.maxVersionsPerPath;
  }

  /** `path` is among the window's paths (it has a row in `paths`). */
  listed(path: string): boolean {
    return this.top.includes(path);
  }

  /**
   * A write takes the next sequence number for `path` (which becomes the most recently used) and,
   * when `sha256` is given, for that head of it (which becomes its newest); returns the number.
   */
  bump(path: string, sha256?: string): number {
    const seq = this.next++;
    moveToFront(this.top, path);
    if (this.top.length > this.topSize) this.top.length = this.topSize;
    if (sha256 !== undefined) {
      let hs = this.heads.get(path);
      if (hs === undefined) this.heads.set(path, (hs = []));
      moveToFront(hs, sha256);
    }
    return seq;
  }
}

function moveToFront(list: string[], item: string): void {
  const at = list.indexOf(item);
  if (at === 0) return;
  if (at > 0) list.splice(at, 1);
  list.unshift(item);
}
