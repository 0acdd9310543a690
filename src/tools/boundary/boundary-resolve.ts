// The boundary family's path resolution for a change: the guard's verdict for writing (which is
// also the policy for deleting and renaming), with the entry's own path named in the error
// (`details.filePath`), so a refusal in a batch says which entry it was.

import { HashlineError, toHashlineError } from '../../core/errors/errors.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import type { Engine } from '../engine.js';

/** Resolves `input` for a change; a refusal names the entry `filePath` (default: `input` itself) and `extra`. */
export async function resolveEntry(engine: Engine, input: string, filePath: string = input, extra: Record<string, unknown> = {}): Promise<ResolvedPath> {
  try {
    return await engine.guard.resolve(input, 'write');
  } catch (e) {
    const err = toHashlineError(e);
    throw new HashlineError(err.code, err.message, { details: { filePath, ...extra, ...(err.details ?? {}) }, cause: e });
  }
}
