// The directories of one PUT /v1/fs/tar extraction, each verified once and then held open: a
// member's parent is made (one component at a time, inside its verified parent) and opened
// without following a link the first time a member needs it, and its descriptor is kept, so the
// next members of that directory cost one call (readlink of /proc/self/fd/N) instead of an lstat
// per component, a guard walk and an open. Names are resolved inside the held descriptor, never
// along the path, and before every use the descriptor is checked to still sit at the directory's
// path: a directory moved, removed, or swapped for a link by another process since it was verified
// fails that check, and is then looked at again from the root like the first time (a link or
// other non-directory in the way is refused with the pre-scan's message).
//
// Descriptors are counted while in use (a write under way in the directory): one dropped from the
// cache (least recently used beyond MAX_HELD, invalidated by a member that replaces it, or failed
// its check) is closed once its last user is done, so a descriptor number is never reused under a
// write. Without /proc (not Linux) nothing is held: each use opens, checks and closes as before.

import { closeSync, constants, lstatSync, mkdirSync, openSync, readlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../../core/errors/errors.js';
import { permissionDenied } from '../../core/messages/guard.js';
import { memberThroughLink } from '../../core/messages/http.js';
import type { PathGuard } from '../../io/guard/path-guard.js';

/** Directories held open at once (the members of an archive come mostly directory by directory). */
const MAX_HELD = 128;
const HAS_PROC_FD = process.platform === 'linux';

/** A verified directory: names under `prefix` resolve inside it (see the header). */
export interface HeldDir {
  readonly abs: string;
  readonly fd: number;
  readonly prefix: string;
  /** Users of the descriptor; it is closed when dropped and unused. */
  users: number;
  dropped: boolean;
}

export class ExtractionDirs {
  private readonly held = new Map<string, HeldDir>();
  /** Directory checks made (each an lstat, open or readlink), for tests that count work. */
  calls = 0;

  constructor(
    private readonly guard: PathGuard,
    /** The extraction root: a real path, existing. */
    private readonly root: string,
  ) {}

  refuse(member: string, abs: string): HashlineError {
    const rel = path.relative(this.root, abs);
    return new HashlineError('tar_member_refused', memberThroughLink(member, rel || '.'), { details: { member } });
  }

  assertAdmitted(abs: string): void {
    if (!this.guard.admitsReal(abs, 'write')) {
      throw new HashlineError('path_blocked', permissionDenied(this.guard.display(abs), 'path is in blocklist'));
    }
  }

  /**
   * The directory `parts` (components under the root), made where missing and verified, for one
   * use: pass it to `release` when done. A link or other non-directory on the way is refused.
   */
  acquire(member: string, parts: readonly string[]): HeldDir {
    const dir = this.get(member, parts);
    dir.users++;
    return dir;
  }

  release(dir: HeldDir): void {
    dir.users--;
    if (dir.dropped && dir.users === 0) closeSync(dir.fd);
  }

  /**
   * Makes and verifies the directory `parts`, as `acquire` does, without keeping a use; a directory
   * already held is left as it is (it is checked again where it is used).
   */
  ensure(member: string, parts: readonly string[]): void {
    if (this.held.has(parts.length === 0 ? this.root : path.join(this.root, ...parts))) return;
    this.release(this.acquire(member, parts));
  }

  /** Forgets `abs` and every directory below it (a member is about to replace it). */
  invalidate(abs: string): void {
    for (const [p, d] of this.held) if (p === abs || p.startsWith(`${abs}/`)) this.drop(d);
  }

  /** Closes every descriptor not in use (the rest close when their users are done). */
  close(): void {
    for (const d of [...this.held.values()]) this.drop(d);
  }

  private drop(d: HeldDir): void {
    if (this.held.get(d.abs) === d) this.held.delete(d.abs);
    if (d.dropped) return;
    d.dropped = true;
    if (d.users === 0) closeSync(d.fd);
  }

  /** True while the descriptor still sits at its path (moved, removed or under a swapped parent: false). */
  private stillThere(d: HeldDir): boolean {
    if (!HAS_PROC_FD) return false;
    this.calls++;
    try {
      return readlinkSync(`/proc/self/fd/${d.fd}`) === d.abs;
    } catch {
      return false;
    }
  }

  private get(member: string, parts: readonly string[]): HeldDir {
    const abs = parts.length === 0 ? this.root : path.join(this.root, ...parts);
    const hit = this.held.get(abs);
    if (hit !== undefined) {
      if (this.stillThere(hit)) {
        // most recently used last
        this.held.delete(abs);
        this.held.set(abs, hit);
        return hit;
      }
      this.drop(hit);
    }
    let at = abs;
    if (parts.length > 0) {
      // the parent first (verified, held), then this name looked at and made inside it
      const parent = this.acquire(member, parts.slice(0, -1));
      try {
        at = `${parent.prefix}/${parts[parts.length - 1]!}`;
        this.calls++;
        const st = lstatSync(at, { throwIfNoEntry: false });
        if (st !== undefined && !st.isDirectory()) throw this.refuse(member, abs);
        if (st === undefined) {
          this.assertAdmitted(abs);
          this.calls++;
          try {
            mkdirSync(at);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          }
        }
        return this.open(member, abs, at);
      } finally {
        this.release(parent);
      }
    }
    return this.open(member, abs, at);
  }

  /** Opens `at` (the name of `abs` inside its verified parent) without following a link, and checks what was opened. */
  private open(member: string, abs: string, at: string): HeldDir {
    let fd: number;
    this.calls++;
    try {
      fd = openDir(at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') throw this.refuse(member, abs);
      throw e;
    }
    const d: HeldDir = { abs, fd, prefix: HAS_PROC_FD ? `/proc/self/fd/${fd}` : abs, users: 0, dropped: false };
    if (!this.guard.admitsReal(abs, 'write') || (HAS_PROC_FD && !this.stillThere(d))) {
      closeSync(fd);
      throw this.refuse(member, abs);
    }
    if (!HAS_PROC_FD) {
      d.dropped = true; // closed after this use: nothing is held where it cannot be checked again
      return d;
    }
    this.held.set(abs, d);
    if (this.held.size > MAX_HELD) {
      for (const old of this.held.values()) {
        if (old.users > 0 || old === d) continue;
        this.drop(old);
        break;
      }
    }
    return d;
  }

  /** Removes the non-directory (a link or file) at `name` inside `dir`, where a directory member goes. */
  unlinkIn(dir: HeldDir, name: string): void {
    this.calls++;
    unlinkSync(`${dir.prefix}/${name}`);
  }
}

const openDir = (at: string) => openSync(at, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
