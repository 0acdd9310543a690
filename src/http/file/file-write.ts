// PUT /v1/fs/file: the query (path, octal mode without special bits) is checked before anything is
// written; the body is streamed into writeAtomic's temporary file beside the target, with a byte
// limit (413), body clocks (408: stalled, or too slow) and the free-space reserve checked up front
// against the declared length and again while the bytes arrive against what is still to come
// (507). The path's lock is taken only for the commit (the check of the target and the rename),
// with a deadline (503 `lock_timeout`), so a slow or stalled client never holds it. Any failure
// removes the temporary file, so no partial file is ever visible. A write that landed is recorded
// in the history (put-history.ts) before the route replies.

import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { CANNOT_WRITE_FILE, PATH_IS_DIRECTORY, PATH_REQUIRED } from '../../core/messages/http.js';
import { writeAtomic } from '../../io/atomic-write.js';
import type { Engine } from '../../tools/engine.js';
import { assertDiskReserve, isNoSpace, noSpaceError, ReserveWatch } from './disk-space.js';
import { parseFileMode } from './file-mode.js';
import type { HttpLimits } from '../limits.js';
import type { PutRecorder } from './put-history.js';
import { assertDeclaredLength, declaredLength, isBodyTimeout, limitedBody } from './request-body.js';

export interface WriteQuery {
  path?: string | undefined;
  mode?: string | undefined;
}

function causeChain(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c = e; c !== undefined && c !== null && out.length < 8; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

export async function writeFileFromRequest(
  engine: Engine,
  limits: HttpLimits,
  query: WriteQuery,
  req: IncomingMessage,
  signal?: AbortSignal,
  recorder?: PutRecorder,
): Promise<void> {
  if (query.path === undefined) throw new HashlineError('invalid_arguments', PATH_REQUIRED);
  const mode = parseFileMode(query.mode);
  const rp = await engine.guard.resolve(query.path, 'write');
  assertDeclaredLength(req, limits.maxBodyBytes);
  const dir = path.dirname(rp.real);
  const declared = declaredLength(req);
  await assertDiskReserve(dir, rp.display, limits.diskReserveBytes, declared ?? 0);
  const watch = new ReserveWatch(dir, rp.display, limits.diskReserveBytes, declared);
  const copy = recorder?.copy();
  const limited = watch.through(limitedBody(req, { limit: limits.maxBodyBytes, idleMs: limits.bodyIdleTimeoutMs, totalMs: limits.requestTimeoutMs }));
  const body = copy ? copy.through(limited) : limited;
  // under the path's lock: what the file held right before the rename, and the record once it landed
  const commit = async <T>(step: () => Promise<T>): Promise<T> => {
    if (recorder === undefined || copy === undefined) return step();
    const before = await recorder.before(rp);
    const done = await step();
    recorder.record(rp.real, before, copy.bytes());
    return done;
  };
  let timedOut = false;
  try {
    await writeAtomic(engine.guard, rp, body, {
      createParents: true,
      ...(mode === undefined ? {} : { mode }),
      ...(signal ? { signal } : {}),
      commit: (step) => engine.locks.withLocks([rp.real], () => commit(step), { timeoutMs: limits.lockTimeoutMs, ...(signal ? { signal } : {}) }),
    });
    await recorder?.flush();
  } catch (e) {
    timedOut = isBodyTimeout(e);
    if (causeChain(e).some(isNoSpace)) throw await noSpaceError(dir, rp.display, limits.diskReserveBytes, e);
    const err = toHashlineError(e);
    if (err.code === 'is_directory') throw new HashlineError('is_directory', PATH_IS_DIRECTORY, { cause: e });
    if (err.code === 'io_error' || err.code === 'internal') throw new HashlineError('io_error', CANNOT_WRITE_FILE, { cause: e });
    throw err;
  } finally {
    // a refused or failed write leaves the rest of the body unread: drain it so the reply goes
    // out (a stalled body is not waited for: the reply closes the connection instead)
    if (!req.complete && !timedOut) req.resume();
  }
}
