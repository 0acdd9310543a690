// The files a tree-wide search looks at: every file under a directory by the walk's rules (the
// warm listing of io/tree/tree-index.ts: no links followed, `.git` and `node_modules` skipped,
// `.gitignore` honoured, the read policy per file), with the `.gitignore` rules of the directories
// above it applied too, and an optional filter on the path relative to that directory.

import { listTree } from './tree-index.js';
import type { PathGuard } from '../guard/path-guard.js';
import { ancestorRules, ignored } from './walk.js';

/** Real paths of the files under the real directory `dirReal`, in walk order. */
export async function filesUnder(guard: PathGuard, dirReal: string, match?: (rel: string) => boolean): Promise<string[]> {
  const all = listTree(guard, dirReal);
  const above = await ancestorRules(guard.realRootOf(dirReal), dirReal);
  if (above.length === 0 && !match) return [...all];
  const cut = dirReal === '/' ? 1 : dirReal.length + 1;
  return all.filter((real) => (above.length === 0 || !ignored(above, real, false)) && (!match || match(real.slice(cut))));
}
