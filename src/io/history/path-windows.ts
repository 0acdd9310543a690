// The windows a durable history keeps in memory: one per path it touched (history-window.ts), ranked
// by use as the store ranks them (rank 0: the most recently used path; a path at or past the limit
// has left the window and shows no versions), bounded in number, plus the paths a group lookup found
// in no window at all (so recording an archive's new files reads nothing per file).

import type { Window } from './history-window.js';

/** Paths remembered as in no window at most (a group of an archive's files is 2,000). */
const MAX_ABSENT = 20_000;

export class PathWindows {
  private readonly windows = new Map<string, Window>();
  /** Paths found in no window by a group lookup, not written since (synchronous runner). */
  private readonly absent = new Set<string>();

  /** `keepAll`: true while nothing backs the windows (the store failed): none is dropped then. */
  constructor(
    private readonly maxPaths: number,
    private readonly keepAll: () => boolean,
  ) {}

  /** The cached window of `path` (its versions emptied once other paths pushed it out), if any. */
  get(path: string): Window | undefined {
    const w = this.windows.get(path);
    if (w && w.rank >= this.maxPaths && w.versions.length > 0) w.versions = [];
    return w;
  }

  has(path: string): boolean {
    return this.windows.has(path);
  }

  /** Caches `w` as the window of `path`; a window not asked for lately is dropped (loaded again when needed). */
  set(path: string, w: Window): Window {
    this.windows.delete(path);
    this.windows.set(path, w);
    while (this.windows.size > this.maxPaths && !this.keepAll()) this.windows.delete(this.windows.keys().next().value as string);
    return w;
  }

  /** An empty window for `path` (a path with no versions in the store). */
  empty(path: string): Window {
    return this.set(path, { versions: [], rank: this.maxPaths });
  }

  delete(path: string): void {
    this.windows.delete(path);
  }

  /** `path` became the most recently used path: the cached paths that were more recent move down one. */
  used(path: string, w: Window): void {
    const was = w.rank;
    if (was === 0) return;
    for (const [p, other] of this.windows) if (p !== path && other.rank < was) other.rank++;
    w.rank = 0;
  }

  /** Takes `path` off the absent paths: true when a group lookup had found it in no window. */
  takeAbsent(path: string): boolean {
    return this.absent.delete(path);
  }

  isAbsent(path: string): boolean {
    return this.absent.has(path);
  }

  /** Remembers the paths of `looked` that `held` (the store's answer) does not hold. */
  markAbsent(looked: readonly string[], held: ReadonlySet<string>): void {
    if (this.absent.size + looked.length > MAX_ABSENT) this.absent.clear();
    for (const p of looked) if (!held.has(p)) this.absent.add(p);
  }

  /** `paths` are about to be written: one path leaves the absent ones; a rename (two) may pull any path up the window. */
  written(paths: readonly string[]): void {
    if (paths.length > 1) this.absent.clear();
    else this.absent.delete(paths[0]!);
  }

  /** Forgets every window and absent path (another process committed, or the database decided a race). */
  clear(): void {
    this.windows.clear();
    this.absent.clear();
  }
}
