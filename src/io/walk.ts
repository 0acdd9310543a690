// Walks a directory tree for the files under it: symbolic links are not followed, `.git` and
// `node_modules` are skipped, `.gitignore` files are honoured at every level, and every file must
// pass the guard's policy for the scope (so a block-listed subtree is never listed).

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { HashlineError } from '../core/errors.js';
import type { Scope } from '../core/path-policy.js';
import type { PathGuard } from './path-guard.js';

export const SKIPPED_DIRS: readonly string[] = ['.git', 'node_modules'];

export interface WalkOptions {
  scope?: Scope;
  signal?: AbortSignal | undefined;
  /** Honour .gitignore files (default true). */
  gitignore?: boolean;
  /** Keep only files for which this returns true (called with the real path). */
  accept?: (real: string) => boolean;
}

export interface WalkedFile {
  /** Absolute real path (the walk never crosses a link, so it is also lexical under the start). */
  real: string;
  /** Relative to the project root when inside it. */
  display: string;
}

/** The rules of one `.gitignore`, applying to paths under `base`. */
export interface IgnoreRules {
  base: string;
  ig: Ignore;
}
type Rules = IgnoreRules;

async function loadIgnore(dir: string): Promise<Rules | null> {
  try {
    const text = await fsp.readFile(path.join(dir, '.gitignore'), 'utf8');
    return { base: dir, ig: ignore().add(text) };
  } catch {
    return null;
  }
}

/** True when any of the rules (each relative to its own base) ignores `abs`. Shared with io/tree-index.ts. */
export function ignored(rules: readonly IgnoreRules[], abs: string, isDir: boolean): boolean {
  for (const r of rules) {
    if (!abs.startsWith(`${r.base}/`)) continue;
    const rel = abs.slice(r.base.length + 1);
    if (r.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/** Yields the files under `startReal` (a real directory path), sorted by path within each directory. */
export async function* walkFiles(guard: PathGuard, startReal: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  const scope = options.scope ?? 'read';
  const useIgnore = options.gitignore !== false;
  const stack: Array<{ dir: string; rules: Rules[] }> = [{ dir: startReal, rules: [] }];
  while (stack.length > 0) {
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    const { dir, rules: parentRules } = stack.pop()!;
    const own = useIgnore ? await loadIgnore(dir) : null;
    const rules = own ? [...parentRules, own] : parentRules;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      const abs = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (SKIPPED_DIRS.includes(e.name)) continue;
        if (useIgnore && ignored(rules, abs, true)) continue;
        subdirs.push(abs);
      } else if (e.isFile()) {
        if (useIgnore && ignored(rules, abs, false)) continue;
        if (!guard.admitsReal(abs, scope)) continue;
        if (options.accept && !options.accept(abs)) continue;
        yield { real: abs, display: guard.display(abs) };
      }
      // symbolic links, devices, fifos and sockets are not walked
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i]!, rules });
  }
}
