// The candidate files of a multi-file operation: each input is a file, a directory (walked:
// links not followed, .git and node_modules skipped, .gitignore honoured) or a glob (its static
// base is resolved by the guard and walked the same way, then matched in linear time by the
// navigation tools' glob matcher; a leading `!` excludes). Every candidate passes the guard; a nonexistent explicit path is skipped without
// a word; a guard denial is thrown. Candidates are sorted by display path, de-duplicated by real
// path and capped.

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { HashlineError } from '../../core/errors/errors.js';
import { linearGlob } from '../../core/config/path-glob.js';
import type { Scope } from '../../core/config/path-policy.js';
import type { PathGuard, ResolvedPath } from '../guard/path-guard.js';
import { walkFiles } from './walk.js';

export interface Candidate {
  readonly rp: ResolvedPath;
  /** Named by the caller as a file (not found by a walk or a glob). */
  readonly explicit: boolean;
}

export interface Expansion {
  readonly candidates: readonly Candidate[];
  /** Candidates before the cap. */
  readonly total: number;
  readonly capped: boolean;
}

export interface ExpandOptions {
  maxFiles: number;
  scope?: Scope;
  signal?: AbortSignal | undefined;
  /** Keep only walked or globbed files for which this returns true (called with the real path). */
  accept?: (real: string) => boolean;
}

function isGlob(input: string): boolean {
  return picomatch.scan(input).isGlob;
}

function walkedPath(guard: PathGuard, base: ResolvedPath, real: string): ResolvedPath {
  const rel = path.relative(base.real, real);
  const lexical = path.join(base.lexical, rel);
  const display = guard.display(lexical);
  return { input: display, display, lexical, real, exists: true, viaLink: false };
}

/**
 * The .gitignore rules of the directories between the root and `dir` (exclusive): a walk started
 * below the root reads only the files from its start down, so these are applied on top.
 */
async function ancestorRules(rootReal: string, dir: string): Promise<(real: string) => boolean> {
  const rel = path.relative(rootReal, dir);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return () => false;
  const rules: Array<{ base: string; ig: ReturnType<typeof ignore> }> = [];
  let d = rootReal;
  for (const part of ['', ...rel.split(path.sep).slice(0, -1)]) {
    d = part === '' ? d : path.join(d, part);
    const text = await fsp.readFile(path.join(d, '.gitignore'), 'utf8').catch(() => null);
    if (text !== null) rules.push({ base: d, ig: ignore().add(text) });
  }
  return (real) => rules.some((r) => r.ig.ignores(path.relative(r.base, real).split(path.sep).join('/')));
}

async function walkUnder(guard: PathGuard, base: ResolvedPath, options: ExpandOptions, match?: (rel: string) => boolean): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const ignoredAbove = await ancestorRules(guard.realRootOf(base.real), base.real);
  const walkOptions = { scope: options.scope ?? 'write', signal: options.signal, ...(options.accept ? { accept: options.accept } : {}) };
  for await (const f of walkFiles(guard, base.real, walkOptions)) {
    if (match && !match(path.relative(base.real, f.real).split(path.sep).join('/'))) continue;
    if (ignoredAbove(f.real)) continue;
    out.push({ rp: walkedPath(guard, base, f.real), explicit: false });
  }
  return out;
}

async function expandGlob(guard: PathGuard, pattern: string, options: ExpandOptions): Promise<Candidate[]> {
  const scan = picomatch.scan(pattern);
  let isMatch: (s: string) => boolean;
  try {
    isMatch = linearGlob(scan.glob, { dot: false, basename: false });
  } catch (e) {
    if (e instanceof HashlineError) throw e;
    throw new HashlineError('invalid_arguments', `the glob \`${pattern}\` is malformed: ${(e as Error).message}`, { details: { path: pattern } });
  }
  const base = await guard.resolve(scan.base === '' ? '.' : scan.base, options.scope ?? 'write');
  if (!base.exists) return [];
  return walkUnder(guard, base, options, isMatch);
}

/** Expands `inputs` into sorted, de-duplicated, capped candidates. */
export async function expandPaths(guard: PathGuard, inputs: readonly string[], options: ExpandOptions): Promise<Expansion> {
  const scope = options.scope ?? 'write';
  const excludes = inputs.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  const found: Candidate[] = [];
  for (const input of inputs) {
    if (input.startsWith('!')) continue;
    if (options.signal?.aborted) throw new HashlineError('aborted', 'aborted');
    let rp: ResolvedPath | undefined;
    if (isGlob(input)) {
      // A path that exists literally (`app/[id]/page.tsx`) is a path, not a glob.
      const literal = await guard.resolve(input, scope).catch(() => undefined);
      if (literal?.exists) rp = literal;
      else {
        found.push(...(await expandGlob(guard, input, options)));
        continue;
      }
    }
    rp ??= await guard.resolve(input, scope);
    if (!rp.exists) continue;
    const isDir = await fsp.stat(rp.real).then((s) => s.isDirectory(), () => null);
    if (isDir === null) continue;
    if (isDir) found.push(...(await walkUnder(guard, rp, options)));
    else found.push({ rp, explicit: true });
  }
  const excludeMatchers = excludes.map((g) => linearGlob(g, { dot: true, basename: false }));
  const excluded = (p: string) => excludeMatchers.some((m) => m(p));
  const byReal = new Map<string, Candidate>();
  for (const c of found) {
    if (excluded(c.rp.display)) continue;
    const prev = byReal.get(c.rp.real);
    // a file both named and walked counts as named (it gets the explicit warnings)
    if (!prev || (c.explicit && !prev.explicit)) byReal.set(c.rp.real, c);
  }
  const sorted = [...byReal.values()].sort((a, b) => (a.rp.display < b.rp.display ? -1 : a.rp.display > b.rp.display ? 1 : 0));
  const capped = sorted.length > options.maxFiles;
  return { candidates: capped ? sorted.slice(0, options.maxFiles) : sorted, total: sorted.length, capped };
}
