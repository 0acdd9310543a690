// Where a program hashline starts (a formatter) may live, checked on the disk right before each
// start: the program, as named and as its links resolve, lies outside every root and every
// writable allow-list entry, so no tool or route can have written it or swapped a link on its way;
// so do the scripts named in its arguments. A bare name is looked up on PATH here (relative
// entries against the working directory, as the child's own lookup would), and the child is
// started by the real path found, with a scrubbed environment (core/config/program-policy.ts).

import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileArguments, isLauncher, isScriptName, programEnv } from '../core/config/program-policy.js';
import type { PathGuard } from './guard/path-guard.js';

export type ProgramCheck =
  | { ok: true; file: string; env: Record<string, string> }
  | { ok: false; reason: 'missing' | 'launcher' | 'writable_program' | 'writable_argument'; what: string };

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

const isExecutableFile = (p: string): boolean => {
  try {
    const st = statSync(p);
    return st.isFile() && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
};

/** The path the child would run for `name` with `cwd` as its working directory, or null. */
function locate(name: string, cwd: string, env: NodeJS.ProcessEnv): string | null {
  if (name.includes('/')) return path.resolve(cwd, name);
  for (const dir of (env.PATH ?? '').split(':')) {
    const candidate = path.resolve(cwd, dir === '' ? '.' : dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** Decides whether `argv` may start in `cwd` now, and with what: the real file and the environment. */
export function checkProgram(guard: PathGuard, argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): ProgramCheck {
  const name = argv[0]!;
  if (isLauncher(name)) return { ok: false, reason: 'launcher', what: name };
  // a place is unsafe when a tool could write it, as named or where its links lead
  const unsafe = (p: string) => {
    if (guard.writableByTools(p)) return true;
    const real = realOrNull(p);
    return real !== null && guard.writableByTools(real);
  };
  const found = locate(name, cwd, env);
  if (found === null) return { ok: false, reason: 'missing', what: name };
  const file = realOrNull(found);
  if (file === null || !isExecutableFile(file)) return { ok: false, reason: 'missing', what: name };
  if (guard.writableByTools(found) || guard.writableByTools(file)) return { ok: false, reason: 'writable_program', what: name };
  for (const a of fileArguments(argv)) {
    const abs = path.resolve(cwd, a);
    if ((isScriptName(a) || isExecutableFile(abs)) && unsafe(abs)) return { ok: false, reason: 'writable_argument', what: a };
  }
  return { ok: true, file, env: programEnv(env, unsafe) };
}
