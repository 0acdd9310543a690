// The file list of a directory tree, kept warm between symbol searches. The walk follows the rules
// of io/tree/walk.ts (no links followed, `.git` and `node_modules` skipped, `.gitignore` honoured from
// the start directory down, the guard's policy per file) but runs synchronously in one pass, and
// its result is reused while every directory it visited and every `.gitignore` under it are
// unchanged (mtime and inode), so a repeated search costs one lstat per directory.

import { lstatSync, readFileSync, readdirSync, type Dirent } from 'node:fs';
import ignore from 'ignore';
import type { PathGuard } from '../guard/path-guard.js';
import { splitEntries, type IgnoreRules } from './walk.js';

interface Stamp {
  dir: string;
  dirKey: string;
  ignoreKey: string;
}

interface TreeList {
  files: string[];
  stamps: Stamp[];
}

const byGuard = new WeakMap<PathGuard, Map<string, TreeList>>();

function key(p: string): string {
  try {
    const st = lstatSync(p);
    return `${st.mtimeMs}:${st.ino}:${st.size}`;
  } catch {
    return '-';
  }
}

type Rules = IgnoreRules;

function walk(guard: PathGuard, start: string): TreeList {
  const files: string[] = [];
  const stamps: Stamp[] = [];
  const stack: Array<{ dir: string; rules: Rules[] }> = [{ dir: start, rules: [] }];
  while (stack.length > 0) {
    const { dir, rules: parentRules } = stack.pop()!;
    const gi = `${dir}/.gitignore`;
    const stamp: Stamp = { dir, dirKey: key(dir), ignoreKey: key(gi) };
    stamps.push(stamp);
    let rules = parentRules;
    if (stamp.ignoreKey !== '-') {
      try {
        rules = [...parentRules, { base: dir, ig: ignore().add(readFileSync(gi, 'utf8')) }];
      } catch {
        // unreadable .gitignore: as io/tree/walk.ts, no rules from it
      }
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const split = splitEntries(guard, dir, entries, rules, 'read');
    files.push(...split.files);
    const subdirs = split.subdirs;
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push({ dir: subdirs[i]!, rules });
  }
  return { files, stamps };
}

/** Every file under the real directory `start`, in walk order; reused while nothing changed. */
export function listTree(guard: PathGuard, start: string): readonly string[] {
  let lists = byGuard.get(guard);
  if (!lists) {
    lists = new Map();
    byGuard.set(guard, lists);
  }
  const cached = lists.get(start);
  if (cached && cached.stamps.every((s) => key(s.dir) === s.dirKey && key(`${s.dir}/.gitignore`) === s.ignoreKey)) return cached.files;
  const fresh = walk(guard, start);
  lists.delete(start);
  lists.set(start, fresh);
  while (lists.size > 16) lists.delete(lists.keys().next().value as string);
  return fresh.files;
}
