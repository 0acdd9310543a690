// Turns a path typed in the console (relative to the root, or absolute; a trailing `/` means "this
// folder and below") into the key the history uses: the real path. Lexical only: a filter or a
// timeline names a path, it opens nothing; what may be shown is decided per entry by the read policy.

import path from 'node:path';
import { isWithin } from '../../core/config/path-policy.js';
import type { PathGuard } from '../../io/guard/path-guard.js';

export function historyKeyOf(guard: PathGuard, input: string): string {
  const trimmed = input.trim();
  const folder = trimmed.endsWith('/') && trimmed !== '/';
  let abs = path.posix.isAbsolute(trimmed) ? path.posix.normalize(trimmed) : path.posix.join(guard.realRoot, trimmed);
  if (abs.length > 1 && abs.endsWith('/')) abs = abs.slice(0, -1);
  // a path under the root as configured is kept in the history under the real root
  if (guard.root !== guard.realRoot && isWithin(abs, guard.root)) abs = guard.realRoot + abs.slice(guard.root.length);
  return folder ? `${abs}/` : abs;
}
