// GET /v1/fs/tar: resolves the directory through the guard, verifies it by opening it, lists it
// (tar-walk.ts: no links followed, block-listed members left out, member and byte caps → 413
// before the first byte is sent) and returns the archive stream of tar-writer.ts, which packs the
// files while it sends; the packing is set to start as soon as the listing ends (stopped, and
// anything it held given back, when the listing is refused).

import type { Readable } from 'node:stream';
import { HashlineError } from '../../core/errors/errors.js';
import { NO_SUCH_DIRECTORY, PATH_NOT_DIRECTORY, PATH_REQUIRED } from '../../core/messages/http.js';
import { openVerified } from '../../io/guard/open-verified.js';
import type { Engine } from '../../tools/engine.js';
import type { HttpLimits } from '../limits.js';
import { TAR_PREFETCH_BYTES_PER_REQUEST, tarPrefetch } from './prefetch-budget.js';
import { listTree, newListing } from './tar-walk.js';
import { TreeTarStream } from './tar-writer.js';

/** Resolves, checks and lists the directory, then returns the tar stream of it. */
export async function packDirectory(engine: Engine, limits: HttpLimits, query: { path?: string | undefined }): Promise<Readable> {
  if (query.path === undefined) throw new HashlineError('invalid_arguments', PATH_REQUIRED);
  const rp = await engine.guard.resolve(query.path, 'read');
  if (!rp.exists) throw new HashlineError('not_found', NO_SUCH_DIRECTORY, { details: { path: rp.display } });
  let vh;
  try {
    vh = await openVerified(engine.guard, rp, 'read', 'dir');
  } catch (e) {
    const code = (e as HashlineError).code;
    if (code === 'not_a_directory') throw new HashlineError('not_a_directory', PATH_NOT_DIRECTORY, { cause: e });
    if (code === 'not_found') throw new HashlineError('not_found', NO_SUCH_DIRECTORY, { cause: e });
    throw e;
  }
  await vh.handle.close();
  const hold = tarPrefetch.hold(TAR_PREFETCH_BYTES_PER_REQUEST);
  const listing = newListing(engine.guard, rp.real, hold);
  const stream = new TreeTarStream(listing, engine.guard, hold);
  stream.pack();
  try {
    await listTree(listing, rp.display, limits);
  } catch (e) {
    await stream.stop();
    hold.release();
    throw e;
  }
  return stream;
}
