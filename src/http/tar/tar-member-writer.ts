// Writes the members of a checked archive (tar-extract.ts) in archive order, with no member ever
// visible half-written:
//
// - a file goes through writeAtomic (temp file + rename, in its parent opened and verified through
//   its descriptor) under the path's lock, so a kill leaves the old file or the new one, and the
//   temp file it leaves is removed when hashline starts again (file-lock.ts `recoverStale`). A small
//   file (up to 1 MiB) is read into memory and written while the next members arrive (up to 64
//   files and 32 MiB at once), so their fsyncs wait on the disk together; its parents are made and
//   checked first, in order. Anything else waits for those writes to land first: a member that is
//   not a file, a large file, a file whose path (or a parent of it) is still being written. Each
//   written file's directory is flushed once, in `finish`, before the extraction reports success;
//   after a failure, the writes under way finish and nothing more starts;
// - a symbolic or hard link is made under a temporary name and renamed over the member's path;
// - a directory is created one component at a time inside its verified parent; directory modes are
//   applied by `finish`, deepest first, once every member has landed. Modes come from
//   tar-rules.ts `memberMode` (CPython's `data` filter); the extraction root's mode is never changed.
//
// Every member's parent is made, verified and held open by tar-dirs.ts (the directories of the
// extraction, each checked once from the root down and then by its descriptor before each use): a
// symbolic link or other non-directory on the way is refused with the pre-scan's message, and
// names are resolved inside the held descriptor, never along the path. A symbolic link at the
// member's own path is replaced, never followed. Calls that only touch memory are synchronous (see
// io/atomic-write.ts); the thread pool is left to the fsyncs.

import { fchmodSync, linkSync, lstatSync, renameSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import type { ReadEntry } from 'tar';
import { HashlineError } from '../../core/errors/errors.js';
import { linkTargetUnreadable, memberEscapes, TAR_FAILED } from '../../core/messages/http.js';
import { syncDirectories } from '../../io/batch/atomic-batch.js';
import { tempNameFor, writeAtomic } from '../../io/atomic-write.js';
import type { Engine } from '../../tools/engine.js';
import type { ReserveWatch } from '../file/disk-space.js';
import type { PutRecorder } from '../file/put-history.js';
import { ExtractionDirs } from './tar-dirs.js';
import { FILE_TYPES, type KeptMember, SMALL_MEMBER } from './tar-kept-members.js';
import { lexicalParts, memberMode } from './tar-rules.js';

/** At most this many such writes, holding at most this many bytes, at once. */
const MAX_IN_FLIGHT = 64;
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

export class MemberWriter {
  /** Directory members below the root by absolute path (a later member wins), with their modes. */
  private readonly dirModes = new Map<string, number>();
  /** Files being written, by absolute path, and the bytes they hold. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private inFlightBytes = 0;
  /** The first failure of a file written concurrently. */
  private failure: { error: unknown } | undefined;
  /** Directories a file was renamed into, flushed once by `finish`. */
  private readonly written = new Set<string>();
  /** The extraction's directories, verified and held open. */
  readonly dirs: ExtractionDirs;

  constructor(
    private readonly engine: Engine,
    /** The extraction root: a real path (no link on it), existing. */
    private readonly root: string,
    /** Free space against what is still to come: checked before members and while their data lands. */
    private readonly watch?: ReserveWatch,
    /** Records each file member that landed in the history. */
    private readonly recorder?: PutRecorder,
  ) {
    this.dirs = new ExtractionDirs(engine.guard, root);
  }

  /** Writes one member: a parsed entry (its data consumed or drained) or one of the pre-scan's copy (tar-kept-members.ts). */
  async write(entry: ReadEntry | KeptMember): Promise<void> {
    if (this.failure) throw this.failure.error;
    const parts = lexicalParts(entry.path);
    if (parts === null) throw new HashlineError('tar_member_refused', memberEscapes(entry.path)); // the pre-scan refused it already
    await this.watch?.member(entry.size ?? 0);
    if (FILE_TYPES.has(entry.type)) {
      if (isKept(entry) || (entry.size ?? 0) <= SMALL_MEMBER) return this.smallFile(entry, parts, memberMode('file', entry.mode));
      await this.drain();
      return this.file(entry, parts, memberMode('file', entry.mode));
    }
    if (!isKept(entry)) entry.resume();
    await this.drain();
    if (entry.type === 'Directory') return this.directory(entry.path, parts, memberMode('directory', entry.mode));
    if (entry.type === 'SymbolicLink') return this.link(entry.path, parts, entry.linkpath ?? '', 'symbolic');
    if (entry.type === 'Link') return this.link(entry.path, parts, entry.linkpath ?? '', 'hard');
    // The pre-scan refused every other type; nothing to write for one that slips through.
  }

  /** Waits for the files being written; throws the first failure among them. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
    if (this.failure) throw this.failure.error;
  }

  /** Waits for the files being written, whatever becomes of them (after a failure elsewhere). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight.values());
    this.dirs.close();
  }

  /** True when a file being written is `abs` or one of its parents, or lies below `abs`. */
  private overlaps(abs: string): boolean {
    for (const p of this.inFlight.keys()) if (p === abs || abs.startsWith(`${p}/`) || p.startsWith(`${abs}/`)) return true;
    return false;
  }

  /** Applies the directory members' modes, deepest first (a read-only parent cannot block a child). */
  async finish(): Promise<void> {
    try {
      await this.drain();
      // `fsync` durability: every file renamed into a directory is durable before the extraction says it is done
      if (this.engine.guard.durable) await syncDirectories(this.written);
      const depth = (p: string) => p.split('/').length;
      const dirs = [...this.dirModes].sort(([a], [b]) => depth(b) - depth(a));
      for (const [abs, mode] of dirs) {
        const rel = path.relative(this.root, abs);
        const d = this.dirs.acquire(rel, rel.split('/'));
        try {
          fchmodSync(d.fd, mode);
        } finally {
          this.dirs.release(d);
        }
      }
    } finally {
      await this.settle();
    }
  }

  private refuse(member: string, abs: string): HashlineError {
    return this.dirs.refuse(member, abs);
  }

  private assertAdmitted(abs: string): void {
    this.dirs.assertAdmitted(abs);
  }

  /**
   * Checks that each of `dirs` (components under the root) is a plain directory, down to the first
   * missing one, without making any (the parents of a hard link's source).
   */
  private assertPlainDirs(member: string, dirs: readonly string[]): void {
    let d = this.root;
    for (const part of dirs) {
      d = path.join(d, part);
      const st = lstatSync(d, { throwIfNoEntry: false });
      if (st === undefined) return;
      if (!st.isDirectory()) throw this.refuse(member, d);
    }
  }

  private async directory(member: string, parts: string[], mode: number): Promise<void> {
    const abs = path.join(this.root, ...parts);
    this.assertAdmitted(abs);
    if (parts.length === 0) return this.dirs.ensure(member, parts); // the extraction root keeps its own mode
    const parent = this.dirs.acquire(member, parts.slice(0, -1));
    try {
      const name = parts[parts.length - 1]!;
      const st = lstatSync(`${parent.prefix}/${name}`, { throwIfNoEntry: false });
      // a link or file where the directory member goes is replaced
      if (st !== undefined && !st.isDirectory()) {
        this.dirs.invalidate(abs);
        this.dirs.unlinkIn(parent, name);
      }
    } finally {
      this.dirs.release(parent);
    }
    this.dirs.ensure(member, parts);
    this.dirModes.delete(abs);
    this.dirModes.set(abs, mode);
  }

  private async file(entry: ReadEntry, parts: string[], mode: number): Promise<void> {
    const abs = path.join(this.root, ...parts);
    await this.fileAt(entry.path, parts, abs, this.watch ? this.watch.through(entry) : entry, mode);
  }

  /** Writes a file member's data at `abs` under its lock, inside its verified parent (made as needed). */
  private async fileAt(member: string, parts: string[], abs: string, data: Uint8Array | AsyncIterable<Uint8Array>, mode: number): Promise<void> {
    const { guard, locks } = this.engine;
    await locks.withLocks([abs], async () => {
      const parent = this.dirs.acquire(member, parts.slice(0, -1));
      try {
        const name = parts[parts.length - 1]!;
        const at = `${parent.prefix}/${name}`;
        let st = lstatSync(at, { throwIfNoEntry: false });
        // A link at the member's own path is replaced by the file, never written through.
        if (st?.isSymbolicLink()) {
          unlinkSync(at);
          st = undefined;
        }
        const rp = guard.resolveInVerifiedDir(parent.abs, name, 'write', st !== undefined);
        // (a new file, the common case, is recorded with no `before`: nothing yields from the lstat
        // above to writeAtomic's check of the target, which takes that lstat's answer instead of its own)
        const yielded = rp.exists && this.recorder !== undefined;
        const before = yielded ? await this.recorder!.before(rp) : undefined;
        // an in-memory member (this writer's own buffer) is written as it is, without a yield, and is
        // itself the history's copy; a streamed one is copied while it streams
        const copy = data instanceof Uint8Array ? undefined : this.recorder?.copy();
        await writeAtomic(guard, rp, copy ? copy.through(data as AsyncIterable<Uint8Array>) : data, {
          mode,
          syncDirectory: false,
          parent: { fd: parent.fd, prefix: parent.prefix },
          ...(yielded ? {} : { inspected: st ?? null }),
        });
        this.written.add(parent.abs);
        if (this.recorder) this.recorder.record(abs, before, copy ? copy.bytes() : keptCopy(data as Uint8Array, this.recorder.limit));
      } finally {
        this.dirs.release(parent);
      }
    });
  }

  /**
   * A small file member: its parents are checked and made now, in archive order; its data is read
   * into memory and written concurrently with the next members (see the header).
   */
  private async smallFile(entry: ReadEntry | KeptMember, parts: string[], mode: number): Promise<void> {
    const member = entry.path;
    const abs = path.join(this.root, ...parts);
    if (this.overlaps(abs)) await this.drain();
    this.dirs.ensure(member, parts.slice(0, -1));
    // its size is in its header: the free-space check is made for it at once, and its data taken
    // whole (one promise, not one per chunk)
    await this.watch?.arriving(entry.size ?? 0);
    const data = isKept(entry) ? entry.data! : await entry.concat();
    if (data.length !== (entry.size ?? 0)) throw new HashlineError('io_error', TAR_FAILED, { details: { member } });
    while (this.inFlight.size >= MAX_IN_FLIGHT || (this.inFlight.size > 0 && this.inFlightBytes + data.length > MAX_IN_FLIGHT_BYTES)) {
      await Promise.race(this.inFlight.values());
    }
    if (this.failure) throw this.failure.error;
    this.inFlightBytes += data.length;
    const task = this.fileAt(member, parts, abs, data, mode)
      .catch((e: unknown) => {
        this.failure ??= { error: e };
      })
      .finally(() => {
        this.inFlight.delete(abs);
        this.inFlightBytes -= data.length;
      });
    this.inFlight.set(abs, task);
  }

  /** A symbolic link (target kept as given) or a hard link (source from the archive root), made under a temp name and renamed into place. */
  private async link(member: string, parts: string[], target: string, kind: 'symbolic' | 'hard'): Promise<void> {
    const abs = path.join(this.root, ...parts);
    this.assertAdmitted(abs);
    let sourceParts: string[] | undefined;
    if (kind === 'hard') {
      sourceParts = lexicalParts(target) ?? undefined;
      if (sourceParts === undefined || sourceParts.length === 0) throw this.refuse(member, path.join(this.root, target));
      this.assertPlainDirs(member, sourceParts.slice(0, -1));
      const source = path.join(this.root, ...sourceParts);
      this.assertAdmitted(source);
      // the pre-scan's rule, checked again where the link is made: no readable name for a blocked file
      const { guard } = this.engine;
      if (!guard.admitsReal(source, 'read') && guard.admitsReal(abs, 'read')) {
        throw new HashlineError('tar_member_refused', linkTargetUnreadable(member, target), { details: { member } });
      }
      if (lstatSync(source).isSymbolicLink()) throw this.refuse(member, source);
    }
    this.dirs.ensure(member, parts.slice(0, -1));
    await this.engine.locks.withLocks([abs], async () => {
      const parent = this.dirs.acquire(member, parts.slice(0, -1));
      // (the source's parent exists: checked above, and no member is written meanwhile)
      const from = sourceParts === undefined ? undefined : this.dirs.acquire(member, sourceParts.slice(0, -1));
      try {
        const at = `${parent.prefix}/${parts[parts.length - 1]!}`;
        const temp = `${parent.prefix}/${path.basename(tempNameFor(abs))}`;
        if (from === undefined) symlinkSync(target, temp);
        else linkSync(`${from.prefix}/${sourceParts![sourceParts!.length - 1]!}`, temp);
        try {
          if (lstatSync(at, { throwIfNoEntry: false })?.isDirectory()) {
            this.dirs.invalidate(abs);
            rmdirSync(at);
          }
          renameSync(temp, at);
          // rename() between two names of one inode (a hard link onto itself) leaves both
          unlinkQuietly(temp);
        } catch (e) {
          unlinkQuietly(temp);
          throw e;
        }
      } finally {
        if (from !== undefined) this.dirs.release(from);
        this.dirs.release(parent);
      }
    });
  }
}

const isKept = (entry: ReadEntry | KeptMember): entry is KeptMember => (entry as KeptMember).kept === true;

function unlinkQuietly(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // gone already
  }
}

/** An in-memory member's bytes as the history keeps them: null when larger than it keeps (as BodyCopy says). */
function keptCopy(bytes: Uint8Array, limit: number): Uint8Array | null {
  return bytes.length > limit ? null : bytes;
}
