// Walks a directory tree for the files under it: symbolic links are not followed, `.git` and
// `node_modules` are skipped, `.gitignore` files are honoured at every level, and every file must
// pass the guard's policy for the scope (so a block-listed subtree is never listed).

import { promises as fsp, type Dirent } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { HashlineError } from '../../core/errors/errors.js';
import type { Scope } from '../../core/config/path-policy.js';
import type { PathGuard } from '../guard/path-guard.js';

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

/** The rules of `dir/.gitignore`, or null when there is none (or it cannot be read). */
export async function loadIgnore(dir: string): Promise<Rules | null> {
  try {
    const text = await fsp.readFile(path.join(dir, '.gitignore'), 'utf8');
    return { base: dir, ig: ignore().add(text) };
  } catch {
    return null;
  }
}

/**
 * The .gitignore rules of the directories from the root down to `dir`'s parent: a walk started
 * below the root reads only the files from its start down, so these are applied on top. None when
 * they ignore `dir` itself: a directory named explicitly is walked as if it were not ignored.
 */
export async function ancestorRules(rootReal: string, dir: string): Promise<IgnoreRules[]> {
  const rules = await rulesAbove(rootReal, dir);
  return ignored(rules, dir, true) ? [] : rules;
}

async function rulesAbove(rootReal: string, dir: string): Promise<IgnoreRules[]> {
  if (dir === rootReal || !dir.startsWith(`${rootReal === '/' ? '' : rootReal}/`)) return [];
  const parts = dir.slice(rootReal.length).split('/').filter((p) => p !== '');
  const out: IgnoreRules[] = [];
  let d = rootReal;
  for (let i = 0; i < parts.length; i++) {
    const own = await loadIgnore(d);
    if (own) out.push(own);
    d = d === '/' ? `/${parts[i]}` : `${d}/${parts[i]}`;
  }
  return out;
}

/** True when any of the rules (each relative to its own base) ignores `abs`. Shared with io/tree/tree-index.ts. */
export function ignored(rules: readonly IgnoreRules[], abs: string, isDir: boolean): boolean {
  for (const r of rules) {
    if (!abs.startsWith(`${r.base}/`)) continue;
    const rel = abs.slice(r.base.length + 1);
    if (r.ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/**
 * Sorts one directory's entries by name and splits them into the subdirectories to walk and the
 * files to list, by the rules every walk shares: links, devices, fifos and sockets are left out,
 * `.git` and `node_modules` skipped, ignore rules applied (when given), each file admitted by the
 * guard for `scope` and by `accept`. Shared with io/tree/tree-index.ts.
 */
export function splitEntries(
  guard: PathGuard,
  dir: string,
  entries: Dirent[],
  rules: readonly IgnoreRules[] | null,
  scope: Scope,
  accept?: (real: string) => boolean,
): { subdirs: string[]; files: string[] } {
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const subdirs: string[] = [];
  const files: string[] = [];
  for (const e of entries) {
    const abs = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (SKIPPED_DIRS.includes(e.name) || (rules !== null && ignored(rules, abs, true))) continue;
      subdirs.push(abs);
    } else if (e.isFile()) {
      if ((rules !== null && ignored(rules, abs, false)) || !guard.admitsReal(abs, scope)) continue;
      if (accept && !accept(abs)) continue;
      files.push(abs);
    }
  }
  return { subdirs, files };
}

export interface DirEntries {
  subdirs: string[];
  files: string[];
  /** Symbolic links (never followed), by the same ignore rules and the policy on their own path. */
  links: string[];
}

/**
 * One directory's entries by the rules every walk shares (`splitEntries`), plus its symbolic
 * links, kept apart: a listing shows them, a walk never follows them. Null when it cannot be read.
 */
export async function readDirEntries(guard: PathGuard, dir: string, rules: readonly IgnoreRules[] | null, scope: Scope): Promise<DirEntries | null> {
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return null;
  }
  const links: string[] = [];
  for (const e of entries) {
    if (!e.isSymbolicLink()) continue;
    const abs = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
    if ((rules !== null && ignored(rules, abs, false)) || !guard.admitsReal(abs, scope)) continue;
    links.push(abs);
  }
  return { ...splitEntries(guard, dir, entries, rules, scope), links };
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
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const { subdirs, files } = splitEntries(guard, dir, entries, useIgnore ? rules : null, scope, options.accept);
    for (const real of files) yield { real, display: guard.display(real) };
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i]!, rules });
  }
}
