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
// Right before each member, every parent from the root down must be a plain directory (a symbolic
// link there is refused with the pre-scan's message); the anchored parent closes the rest of the
// window. A symbolic link at the member's own path is replaced, never followed.

import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { ReadEntry } from 'tar';
import { HashlineError } from '../core/errors.js';
import { permissionDenied } from '../core/messages/guard.js';
import { linkTargetUnreadable, memberEscapes, memberThroughLink } from '../core/messages/http.js';
import { syncDirectories } from '../io/atomic-batch.js';
import { tempNameFor, writeAtomic } from '../io/atomic-write.js';
import { descriptorPath } from '../io/open-verified.js';
import type { Engine } from '../tools/engine.js';
import type { ReserveWatch } from './disk-space.js';
import type { PutRecorder } from './put-history.js';
import { lexicalParts, memberMode } from './tar-rules.js';

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
/** Files up to this size are read into memory and written concurrently with the next members. */
const SMALL_MEMBER = 1024 * 1024;
/** At most this many such writes, holding at most this many bytes, at once. */
const MAX_IN_FLIGHT = 64;
const MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

interface Anchor {
  handle: FileHandle;
  /** Names under this prefix resolve inside the opened directory (/proc/self/fd/N on Linux). */
  prefix: string;
}

function statOrNull(p: string) {
  return fsp.lstat(p).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw e;
  });
}

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

  constructor(
    private readonly engine: Engine,
    /** The extraction root: a real path (no link on it), existing. */
    private readonly root: string,
    /** Free space against what is still to come: checked before members and while their data lands. */
    private readonly watch?: ReserveWatch,
    /** Records each file member that landed in the history. */
    private readonly recorder?: PutRecorder,
  ) {}

  /** Writes one member; consumes (or drains) the entry's data. */
  async write(entry: ReadEntry): Promise<void> {
    if (this.failure) throw this.failure.error;
    const parts = lexicalParts(entry.path);
    if (parts === null) throw new HashlineError('tar_member_refused', memberEscapes(entry.path)); // the pre-scan refused it already
    await this.watch?.member(entry.size ?? 0);
    if (FILE_TYPES.has(entry.type)) {
      if ((entry.size ?? 0) <= SMALL_MEMBER) return this.smallFile(entry, parts, memberMode('file', entry.mode));
      await this.drain();
      return this.file(entry, parts, memberMode('file', entry.mode));
    }
    entry.resume();
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
  }

  /** True when a file being written is `abs` or one of its parents, or lies below `abs`. */
  private overlaps(abs: string): boolean {
    for (const p of this.inFlight.keys()) if (p === abs || abs.startsWith(`${p}/`) || p.startsWith(`${abs}/`)) return true;
    return false;
  }

  /** Applies the directory members' modes, deepest first (a read-only parent cannot block a child). */
  async finish(): Promise<void> {
    await this.drain();
    // every file renamed into a directory is durable before the extraction says it is done
    await syncDirectories(this.written);
    const depth = (p: string) => p.split('/').length;
    const dirs = [...this.dirModes].sort(([a], [b]) => depth(b) - depth(a));
    for (const [abs, mode] of dirs) {
      const rel = path.relative(this.root, abs);
      const handle = await this.anchor(rel || '.', abs);
      try {
        await handle.handle.chmod(mode);
      } finally {
        await handle.handle.close().catch(() => undefined);
      }
    }
  }

  private refuse(member: string, component: string): HashlineError {
    return new HashlineError('tar_member_refused', memberThroughLink(member, component || '.'), { details: { member } });
  }

  private assertAdmitted(abs: string): void {
    if (!this.engine.guard.admitsReal(abs, 'write')) {
      throw new HashlineError('path_blocked', permissionDenied(this.engine.guard.display(abs), 'path is in blocklist'));
    }
  }

  /**
   * Checks that each of `dirs` (components under the root) is a plain directory, down to the first
   * missing one; a link or any other non-directory in the way is refused.
   */
  private async assertPlainDirs(member: string, dirs: readonly string[]): Promise<void> {
    let d = this.root;
    for (const part of dirs) {
      d = path.join(d, part);
      const st = await statOrNull(d);
      if (st === null) return;
      if (!st.isDirectory()) throw this.refuse(member, path.relative(this.root, d));
    }
  }

  /** Opens `dir` without following a link and checks the descriptor is `dir`, inside the policy. */
  private async anchor(member: string, dir: string): Promise<Anchor> {
    const rel = path.relative(this.root, dir);
    let handle: FileHandle;
    try {
      handle = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOTDIR') throw this.refuse(member, rel);
      throw e;
    }
    const actual = await descriptorPath(handle.fd);
    if (actual === null) return { handle, prefix: dir };
    if (actual !== dir || !this.engine.guard.admitsReal(actual, 'write')) {
      await handle.close().catch(() => undefined);
      throw this.refuse(member, rel);
    }
    return { handle, prefix: `/proc/self/fd/${handle.fd}` };
  }

  /** Runs `fn` with the parent of `abs` anchored; `name` is the final component. */
  private async inParent<T>(member: string, abs: string, fn: (at: (name: string) => string, name: string) => Promise<T>): Promise<T> {
    const a = await this.anchor(member, path.dirname(abs));
    try {
      return await fn((n) => `${a.prefix}/${n}`, path.basename(abs));
    } finally {
      await a.handle.close().catch(() => undefined);
    }
  }

  /** Creates the directories `parts` (under the root) that are missing, each inside its verified parent. */
  private async mkdirs(member: string, parts: readonly string[], replaceLast: boolean): Promise<void> {
    let d = this.root;
    for (let i = 0; i < parts.length; i++) {
      d = path.join(d, parts[i]!);
      const st = await statOrNull(d);
      if (st?.isDirectory()) continue;
      if (st !== null && !(replaceLast && i === parts.length - 1)) throw this.refuse(member, path.relative(this.root, d));
      this.assertAdmitted(d);
      await this.inParent(member, d, async (at, name) => {
        if (st !== null) await fsp.unlink(at(name)); // a link or file where the directory member goes
        await fsp.mkdir(at(name)).catch(async (e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST' || !(await fsp.lstat(at(name))).isDirectory()) throw e;
        });
      });
    }
  }

  private async directory(member: string, parts: string[], mode: number): Promise<void> {
    await this.assertPlainDirs(member, parts.slice(0, -1));
    const abs = path.join(this.root, ...parts);
    this.assertAdmitted(abs);
    await this.mkdirs(member, parts, true);
    if (parts.length === 0) return; // the extraction root keeps its own mode
    this.dirModes.delete(abs);
    this.dirModes.set(abs, mode);
  }

  private async file(entry: ReadEntry, parts: string[], mode: number): Promise<void> {
    const member = entry.path;
    await this.assertPlainDirs(member, parts.slice(0, -1));
    const abs = path.join(this.root, ...parts);
    await this.fileAt(member, parts, abs, this.watch ? this.watch.through(entry) : entry, mode);
  }

  /** Writes a file member's data at `abs` under its lock (its parents made as needed). */
  private async fileAt(member: string, parts: string[], abs: string, data: Uint8Array | AsyncIterable<Uint8Array>, mode: number): Promise<void> {
    const { guard, locks } = this.engine;
    await locks.withLocks([abs], async () => {
      // A link at the member's own path is replaced by the file, never written through.
      if ((await statOrNull(abs))?.isSymbolicLink()) await this.inParent(member, abs, (at, name) => fsp.unlink(at(name)));
      const rp = await guard.resolve(abs, 'write');
      if (rp.real !== abs) throw this.refuse(member, parts.slice(0, -1).join('/'));
      const before = await this.recorder?.before(rp);
      const copy = this.recorder?.copy();
      // an in-memory member goes through the history's copy as one chunk
      const source = copy ? copy.through(data instanceof Uint8Array ? oneChunk(data) : data) : data;
      await writeAtomic(guard, rp, source, { createParents: true, mode, syncDirectory: false });
      this.written.add(path.dirname(abs));
      if (copy) this.recorder!.record(abs, before, copy.bytes());
    });
  }

  /**
   * A small file member: its parents are checked and made now, in archive order; its data is read
   * into memory and written concurrently with the next members (see the header).
   */
  private async smallFile(entry: ReadEntry, parts: string[], mode: number): Promise<void> {
    const member = entry.path;
    const abs = path.join(this.root, ...parts);
    if (this.overlaps(abs)) await this.drain();
    await this.assertPlainDirs(member, parts.slice(0, -1));
    await this.mkdirs(member, parts.slice(0, -1), false);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.watch ? this.watch.through(entry) : entry) chunks.push(chunk as Uint8Array);
    const data = Buffer.concat(chunks);
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
    await this.assertPlainDirs(member, parts.slice(0, -1));
    const abs = path.join(this.root, ...parts);
    this.assertAdmitted(abs);
    let source: string | undefined;
    if (kind === 'hard') {
      const sourceParts = lexicalParts(target);
      if (sourceParts === null || sourceParts.length === 0) throw this.refuse(member, target);
      await this.assertPlainDirs(member, sourceParts.slice(0, -1));
      source = path.join(this.root, ...sourceParts);
      this.assertAdmitted(source);
      // the pre-scan's rule, checked again where the link is made: no readable name for a blocked file
      const { guard } = this.engine;
      if (!guard.admitsReal(source, 'read') && guard.admitsReal(abs, 'read')) {
        throw new HashlineError('tar_member_refused', linkTargetUnreadable(member, target), { details: { member } });
      }
      if ((await fsp.lstat(source)).isSymbolicLink()) throw this.refuse(member, sourceParts.join('/'));
    }
    await this.mkdirs(member, parts.slice(0, -1), false);
    await this.engine.locks.withLocks([abs], () =>
      this.inParent(member, abs, async (at, name) => {
        const temp = at(path.basename(tempNameFor(abs)));
        if (source === undefined) await fsp.symlink(target, temp);
        else await this.inParent(member, source, (src, srcName) => fsp.link(src(srcName), temp));
        try {
          const existing = await statOrNull(at(name));
          if (existing?.isDirectory()) await fsp.rmdir(at(name));
          await fsp.rename(temp, at(name));
          // rename() between two names of one inode (a hard link onto itself) leaves both
          await fsp.unlink(temp).catch(() => undefined);
        } catch (e) {
          await fsp.unlink(temp).catch(() => undefined);
          throw e;
        }
      }),
    );
  }
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
