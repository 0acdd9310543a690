// The boundary family's path resolution for a change: the guard's verdict for writing (which is
// also the policy for deleting and renaming), with the entry's own path named in the error
// (`details.filePath`), so a refusal in a batch says which entry it was. A path that is itself a
// symbolic link is refused for every change (write, patch, chattr, rename, delete): the family
// changes files by their own path (docs/read-write.md, "Symbolic links").

import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import { linkRefused } from '../../core/messages/guard.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import type { Engine } from '../engine.js';

/** The refusal of a change of `rp` when the path is a symbolic link; undefined otherwise. */
export function linkRefusal(engine: Engine, rp: ResolvedPath, filePath: string = rp.display): HashlineError | undefined {
  if (!rp.viaLink) return undefined;
  const target = engine.guard.display(rp.real);
  return new HashlineError('not_regular_file', linkRefused(rp.display, target), { details: { filePath, path: rp.display, reason: 'symlink', target } });
}

/**
 * Resolves `input` for a change; a refusal names the entry `filePath` (default: `input` itself) and
 * `extra`. A path that is a link is refused unless `links: 'allow'` (a rename's destination, which
 * must not exist at all).
 */
export async function resolveEntry(engine: Engine, input: string, filePath: string = input, extra: Record<string, unknown> = {}, links: 'refuse' | 'allow' = 'refuse'): Promise<ResolvedPath> {
  let rp: ResolvedPath;
  try {
    rp = await engine.guard.resolve(input, 'write');
  } catch (e) {
    const err = toHashlineError(e);
    throw new HashlineError(err.code, err.message, { details: { filePath, ...extra, ...(err.details ?? {}) }, cause: e });
  }
  const refused = links === 'refuse' ? linkRefusal(engine, rp, filePath) : undefined;
  if (refused) throw refused;
  return rp;
}
