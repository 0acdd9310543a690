// PUT /v1/fs/tar: the body is spooled to a private, already unlinked temp file (byte limit → 413, a
// stalled or slow body → 408, a truncated body or archive → 400), the whole archive is listed and
// checked against the rules of tar-rules.ts (nothing is written when any member is refused), its
// member total checked against free space and the reserve (507, nothing written; checked again
// per member and per chunk against what is still to come), then written member by member, in
// archive order, by tar-member-writer.ts (from the pre-scan's copy when the archive is small enough
// to keep, tar-kept-members.ts; else parsed again from the spool): files through writeAtomic (temp file +
// rename under the path's lock; small files written concurrently with the next members, every
// directory flushed once at the end), links under a temp name renamed into place, directory modes
// last, deepest first. Each
// member's parents must be plain directories (verified once per extraction and checked by their
// held descriptor before each use, tar-dirs.ts), and every name is resolved inside that verified
// parent, so no member is written through a link.
//
// A kill mid-extraction leaves each member either absent, as it was, or complete (never torn);
// the members already written stay (extraction is not atomic as a whole, e.g. on a full disk).

import { lstatSync, promises as fsp, readlinkSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { list as tarList, Parser, type ReadEntry } from 'tar';
import { HashlineError, isHashlineError } from '../../core/errors/errors.js';
import {
  EXTRACTION_PATH_ABSOLUTE,
  MALFORMED_BODY,
  PATH_NOT_DIRECTORY,
  PATH_REQUIRED,
  TAR_FAILED,
} from '../../core/messages/http.js';
import { isWithin, type Scope } from '../../core/config/path-policy.js';
import type { PathGuard } from '../../io/guard/path-guard.js';
import type { Engine } from '../../tools/engine.js';
import { assertDiskReserve, isNoSpace, noSpaceError, ReserveWatch } from '../file/disk-space.js';
import type { HttpLimits } from '../limits.js';
import { assertDeclaredLength, type BodyLimits, isBodyTimeout, limitedBody } from '../file/request-body.js';
import type { PutRecorder } from '../file/put-history.js';
import { type KeptMember, KeptMembers } from './tar-kept-members.js';
import { MemberWriter } from './tar-member-writer.js';
import { ArchiveCheck } from './tar-rules.js';

/**
 * Writes the request body to a private temp file that is unlinked as soon as it is open, so a
 * daemon killed mid-upload leaves nothing behind; the open handle is the only way to it.
 */
const SPOOL_PREFIX = 'hashline-spool-';

/**
 * Removes spool folders left by daemons killed between creating one and removing it (the folder
 * name carries the owner's pid). Run at start.
 */
export async function removeStaleSpools(tmp: string = os.tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await fsp.readdir(tmp).catch(() => [] as string[])) {
    const m = new RegExp(`^${SPOOL_PREFIX}(\\d+)-`).exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    try {
      process.kill(pid, 0);
      continue; // its owner is alive
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPERM') continue;
    }
    await fsp.rm(path.join(tmp, name), { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}

async function spool(req: IncomingMessage, limits: BodyLimits): Promise<FileHandle> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `${SPOOL_PREFIX}${process.pid}-`));
  let handle: FileHandle;
  try {
    handle = await fsp.open(path.join(dir, 'body.tar'), 'wx+', 0o600);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  try {
    let pos = 0;
    for await (const chunk of limitedBody(req, limits)) {
      await handle.write(chunk, 0, chunk.length, pos);
      pos += chunk.length;
    }
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

interface TarSink extends NodeJS.EventEmitter {
  write(chunk: Buffer): boolean;
  end(): unknown;
}

/** Streams the spooled archive into a node-tar parser or unpacker; resolves on `done`. */
async function feed(handle: FileHandle, sink: TarSink, done: 'end' | 'close'): Promise<void> {
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('error', reject);
    sink.on(done, () => resolve());
  });
  finished.catch(() => undefined);
  let pos = 0;
  for (;;) {
    const buf = Buffer.allocUnsafe(256 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    if (!sink.write(buf.subarray(0, bytesRead))) {
      await Promise.race([new Promise((r) => sink.once('drain', r)), finished]);
    }
  }
  sink.end();
  await finished;
}

/** The on-disk link lookup of tar-rules: targets inside the root become relative to the link's directory. */
function diskLinks(root: string) {
  return (rel: string): string | null => {
    const abs = path.join(root, rel);
    try {
      if (!lstatSync(abs).isSymbolicLink()) return null;
      const target = readlinkSync(abs);
      if (!path.isAbsolute(target)) return target;
      return isWithin(path.normalize(target), root) ? path.relative(path.dirname(abs), target) || '.' : target;
    } catch {
      return null;
    }
  };
}

function policy(guard: PathGuard, root: string) {
  return (rel: string, scope: Scope): HashlineError | null => {
    const abs = rel === '' ? root : path.join(root, rel);
    return guard.refusalOfReal(abs, scope);
  };
}

/**
 * Lists and checks the whole archive; throws the first refusal, or `malformed_body`. An archive
 * must end with its end-of-archive (zero) block: without it, a body cut on a member boundary or
 * inside a member header would pass for a shorter archive (the parser drops a partial header).
 * Returns the check, whose `bytes` is the total of the members' data, and the members themselves
 * when the archive was small enough to keep whole (tar-kept-members.ts).
 */
async function preScan(spooled: FileHandle, root: string, guard: PathGuard, limits: HttpLimits): Promise<{ check: ArchiveCheck; kept: KeptMember[] | undefined }> {
  const check = new ArchiveCheck({ maxMembers: limits.maxTarMembers, maxBytes: limits.maxTarBytes }, diskLinks(root), policy(guard, root));
  const keep = new KeptMembers();
  let refusal: unknown;
  let ended = false;
  try {
    const parser = tarList({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (refusal !== undefined) return;
        try {
          check.add({ path: entry.path, type: entry.type, linkpath: entry.linkpath, size: entry.size ?? 0 });
          keep.take(entry);
        } catch (e) {
          refusal = e;
        }
      },
    }) as unknown as TarSink;
    parser.once('nullBlock', () => (ended = true));
    await feed(spooled, parser, 'end');
  } catch (e) {
    if (refusal === undefined) throw new HashlineError('malformed_body', MALFORMED_BODY, { cause: e });
  }
  if (refusal !== undefined) throw refusal;
  if (!ended) throw new HashlineError('malformed_body', MALFORMED_BODY, { details: { reason: 'no end-of-archive block' } });
  return { check, kept: keep.members() };
}

function causeChain(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c = e; c !== undefined && c !== null && out.length < 8; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

/**
 * Parses the spooled archive again and hands each entry to `writer`, one at a time: the next entry
 * waits until the writer has taken the previous one (a large member has landed; a small one is
 * read into memory and under way, see tar-member-writer.ts), and feeding waits on the entry being
 * written (backpressure), so at most a read chunk of a large member and the writer's small files
 * in flight (up to 32 MiB) are held in memory. Stops writing at the first failure (the rest of the
 * archive is drained; writes under way finish) and throws it.
 */
async function writeMembers(spooled: FileHandle, writer: MemberWriter, kept: KeptMember[] | undefined): Promise<void> {
  if (kept !== undefined) return writeKept(kept, writer);
  let chain = Promise.resolve();
  let failure: { error: unknown } | undefined;
  let current: ReadEntry | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      chain = chain.then(async () => {
        if (failure) return void entry.resume();
        current = entry;
        try {
          await writer.write(entry);
        } catch (e) {
          failure = { error: e };
          entry.resume();
        } finally {
          current = undefined;
        }
      });
    },
  }) as unknown as TarSink;
  try {
    await feed(spooled, parser, 'end');
  } catch (e) {
    // The archive was checked whole, so this is an I/O failure of the spool: unblock the member in flight.
    failure ??= { error: new HashlineError('io_error', TAR_FAILED, { cause: e }) };
    current?.destroy();
  }
  await chain;
  if (failure) {
    // the files being written when it failed land (or fail) before the reply
    await writer.settle();
    throw failure.error;
  }
  await writer.finish();
}

/** writeMembers for an archive the pre-scan kept whole: the same writes, in the same order, from memory. */
async function writeKept(kept: KeptMember[], writer: MemberWriter): Promise<void> {
  try {
    for (const m of kept) await writer.write(m);
  } catch (e) {
    await writer.settle();
    throw e;
  }
  await writer.finish();
}

export async function extractTarFromRequest(
  engine: Engine,
  limits: HttpLimits,
  query: { path?: string | undefined },
  req: IncomingMessage,
  recorder?: PutRecorder,
): Promise<void> {
  if (query.path === undefined) throw new HashlineError('invalid_arguments', PATH_REQUIRED);
  if (!path.posix.isAbsolute(query.path)) throw new HashlineError('invalid_arguments', EXTRACTION_PATH_ABSOLUTE);
  const rp = await engine.guard.resolve(query.path, 'write');
  const root = rp.real;
  if (rp.exists && !(await fsp.lstat(root)).isDirectory()) throw new HashlineError('not_a_directory', PATH_NOT_DIRECTORY);
  assertDeclaredLength(req, limits.maxBodyBytes);
  await assertDiskReserve(root, rp.display, limits.diskReserveBytes);
  let spooled: FileHandle | undefined;
  let timedOut = false;
  try {
    spooled = await spool(req, { limit: limits.maxBodyBytes, idleMs: limits.bodyIdleTimeoutMs, totalMs: limits.requestTimeoutMs }).catch((e: unknown) => {
      timedOut = isBodyTimeout(e);
      throw e;
    });
    const { check, kept } = await preScan(spooled, root, engine.guard, limits);
    const { bytes } = check;
    // everything the archive brings must fit above the reserve before its first member is written
    const watch = new ReserveWatch(root, rp.display, limits.diskReserveBytes, bytes);
    await watch.check();
    if (!rp.exists) await fsp.mkdir(root, { recursive: true });
    await writeMembers(spooled, new MemberWriter(engine, root, watch, recorder), kept).catch(async (e: unknown) => {
      if (causeChain(e).some(isNoSpace)) throw await noSpaceError(root, rp.display, limits.diskReserveBytes, e);
      if (isHashlineError(e) && e.code !== 'io_error' && e.code !== 'internal') throw e;
      throw new HashlineError('io_error', TAR_FAILED, { cause: e });
    });
  } finally {
    if (!req.complete && !timedOut) req.resume();
    await spooled?.close().catch(() => undefined);
    // the members that landed (all of them, or those before a failure) are in the history before the reply
    await recorder?.flush();
  }
}
