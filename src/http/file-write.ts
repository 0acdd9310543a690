// PUT /v1/fs/file: the query (path, octal mode) is checked before anything is written; the body is
// streamed into writeAtomic (temp file + rename, parents created inside the guard's scope) under
// the path's lock, with a byte limit (413) and a free-space reserve checked before and during the
// write (507). Any failure removes the temporary file, so no partial file is ever visible.

import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { CANNOT_WRITE_FILE, PATH_IS_DIRECTORY, PATH_REQUIRED } from '../core/messages/http.js';
import { writeAtomic } from '../io/atomic-write.js';
import type { Engine } from '../tools/engine.js';
import { assertDiskReserve, availableBytes, isNoSpace } from './disk-space.js';
import { parseFileMode } from './file-mode.js';
import type { HttpLimits } from './limits.js';
import { assertDeclaredLength, limitedBody } from './request-body.js';
import { diskReserve } from '../core/messages/http.js';

/** How often (bytes received) the free-space reserve is checked again during a write. */
const DISK_RECHECK_BYTES = 8 * 1024 * 1024;

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
): Promise<void> {
  if (query.path === undefined) throw new HashlineError('invalid_arguments', PATH_REQUIRED);
  const mode = parseFileMode(query.mode);
  const rp = await engine.guard.resolve(query.path, 'write');
  assertDeclaredLength(req, limits.maxBodyBytes);
  const dir = path.dirname(rp.real);
  await assertDiskReserve(dir, rp.display, limits.diskReserveBytes);
  let nextCheck = DISK_RECHECK_BYTES;
  const body = limitedBody(req, limits.maxBodyBytes, async (total) => {
    if (total < nextCheck) return;
    nextCheck = total + DISK_RECHECK_BYTES;
    await assertDiskReserve(dir, rp.display, limits.diskReserveBytes);
  });
  try {
    await engine.locks.withLocks(
      [rp.real],
      () => writeAtomic(engine.guard, rp, body, { createParents: true, ...(mode === undefined ? {} : { mode }), ...(signal ? { signal } : {}) }),
      signal ? { signal } : {},
    );
  } catch (e) {
    if (causeChain(e).some(isNoSpace)) {
      const avail = await availableBytes(dir).catch(() => 0);
      throw new HashlineError('insufficient_storage', diskReserve(rp.display, avail, limits.diskReserveBytes), { cause: e });
    }
    const err = toHashlineError(e);
    if (err.code === 'is_directory') throw new HashlineError('is_directory', PATH_IS_DIRECTORY, { cause: e });
    if (err.code === 'io_error' || err.code === 'internal') throw new HashlineError('io_error', CANNOT_WRITE_FILE, { cause: e });
    throw err;
  } finally {
    // a refused or failed write leaves the rest of the body unread: drain it so the reply goes out
    if (!req.complete) req.resume();
  }
}
