// The lexical half of the path guard: refuses malformed input, normalizes without touching the disk,
// and decides root containment, allow and block lists by whole path components (never by string
// prefix: root `/p` does not contain `/p2`). The real-path half lives in io/guard/path-guard.ts.

import path from 'node:path';
import { HashlineError } from '../errors/errors.js';
import { isLockName } from '../lock-names.js';
import { pathHasOwnName } from '../own-names.js';
import { LOCK_FILE_REASON, permissionDenied, STAGING_FILE_REASON, STATE_DIR_REASON, VCS_DIR_REASON } from '../messages/guard.js';

export type Scope = 'read' | 'write';

export interface PathPolicyConfig {
  /** Absolute, normalized (and, in practice, real) root directory. */
  readonly root: string;
  /** Further roots (MCP clients may offer several): a path inside any of them is inside the boundary. */
  readonly roots?: readonly string[] | undefined;
  readonly allow: readonly string[];
  readonly block: readonly string[];
  /** When set, these replace allow/block for reads. */
  readonly readAllow?: readonly string[] | undefined;
  readonly readBlock?: readonly string[] | undefined;
  /** Exact files no tool may change (the operator's configuration file): refused for writes. */
  readonly protect?: readonly string[] | undefined;
  /** Exact files no tool may read or change (the server's token file). */
  readonly seal?: readonly string[] | undefined;
  /** Directories no tool may read, change or list, with everything under them (hashline's state directory). */
  readonly sealTree?: readonly string[] | undefined;
  /**
   * The operator's unrestricted file access: a path outside every root is admitted without an allow
   * entry. Everything else here still holds (blocks, read blocks, protected and sealed files, lock files).
   */
  readonly unrestricted?: boolean | undefined;
  /** `[files] write_vcs_dirs`: tools may write inside `.git`, `.hg` and `.svn` (default false: read-only). */
  readonly writeVcsDirs?: boolean | undefined;
}

/** Version-control folders: read-only for every tool unless the configuration opens them. */
export const VCS_DIRS: readonly string[] = ['.git', '.hg', '.svn'];

/** True when a component of `rel` names a version-control folder (or file: a worktree's `.git`), in any case. */
function hasVcsPart(rel: string): boolean {
  return rel.split('/').some((part) => VCS_DIRS.includes(part.toLowerCase()));
}

export type Verdict =
  | { kind: 'allowed'; abs: string; inRoot: boolean; allowListed: boolean }
  | { kind: 'denied'; abs: string; code: 'path_outside_root' | 'path_blocked'; reason: string }
  | { kind: 'conflict'; abs: string; reason: string };

/** Refuses input forms that have no safe meaning here. Throws `invalid_path`. */
export function assertPathForm(input: string): void {
  const bad = (why: string): never => {
    throw new HashlineError('invalid_path', `invalid path ${JSON.stringify(input)}: ${why}`, {
      details: { path: input },
    });
  };
  if (typeof input !== 'string' || input.length === 0) bad('the path is empty');
  if (input.includes('\0')) bad('the path holds a NUL byte');
  if (input.startsWith('~')) bad('`~` is not expanded; give a path relative to the root or an absolute path');
  if (input.includes('\\')) bad('backslash separators are refused; use `/`');
  if (/^[A-Za-z]:/.test(input)) bad('drive-letter paths are refused; use `/` paths');
  if (/[\u0001-\u001f\u007f]/.test(input)) bad('the path holds a control character');
  if (input.length > 4096) bad('the path is longer than 4096 characters');
}

/** Lexical normalization: relative paths join the root, `.` drops, `..` pops (never above `/`). */
export function normalizeLexical(input: string, root: string): string {
  const joined = path.posix.isAbsolute(input) ? input : `${root}/${input}`;
  const out: string[] = [];
  for (const part of joined.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** True when `candidate` is `base` or lies under it, by whole components. */
export function isWithin(candidate: string, base: string): boolean {
  if (base === '/') return candidate.startsWith('/');
  return candidate === base || candidate.startsWith(`${base}/`);
}

/** The path relative to the root for display, or the absolute path when outside. */
export function displayPath(abs: string, root: string): string {
  if (abs === root) return '.';
  return isWithin(abs, root) ? abs.slice(root === '/' ? 1 : root.length + 1) : abs;
}

function lists(config: PathPolicyConfig, scope: Scope): { allow: readonly string[]; block: readonly string[] } {
  if (scope === 'read') {
    return { allow: config.readAllow ?? config.allow, block: config.readBlock ?? config.block };
  }
  return { allow: config.allow, block: config.block };
}

/** The root of the policy that holds `abs` (the first one when several do), or undefined. */
export function containingRoot(abs: string, config: Pick<PathPolicyConfig, 'root' | 'roots'>): string | undefined {
  if (isWithin(abs, config.root)) return config.root;
  return config.roots?.find((r) => isWithin(abs, r));
}

/** The refusal reason when a component of `rel` is one of hashline's own names, else undefined. */
function ownNameIn(rel: string): string | undefined {
  if (!pathHasOwnName(rel)) return undefined;
  return rel.split('/').some((part) => isLockName(part)) ? LOCK_FILE_REASON : STAGING_FILE_REASON;
}

/** Decides a normalized absolute path against the policy, with no disk access. */
export function decide(abs: string, config: PathPolicyConfig, scope: Scope): Verdict {
  if (config.seal?.includes(abs) || (scope === 'write' && config.protect?.includes(abs))) {
    return { kind: 'denied', abs, code: 'path_blocked', reason: "path is the operator's configuration, which no tool may change" };
  }
  if (config.sealTree?.some((d) => isWithin(abs, d))) return { kind: 'denied', abs, code: 'path_blocked', reason: STATE_DIR_REASON };
  // hashline's own names (core/own-names.ts: staging, backup and lock files, which hold the bytes
  // of the file they stage) are never read, written or listed by a tool, whatever the lists say:
  // any component below the root so named, or the last one of a path outside it
  const holder = containingRoot(abs, config);
  const inRoot = holder !== undefined;
  const own = ownNameIn(holder !== undefined ? abs.slice(holder.length) : abs.slice(abs.lastIndexOf('/')));
  if (own !== undefined) return { kind: 'denied', abs, code: 'path_blocked', reason: own };
  // a write into .git (a hook, core.fsmonitor in .git/config) runs at the user's next git command
  if (scope === 'write' && config.writeVcsDirs !== true && holder !== undefined && hasVcsPart(abs.slice(holder.length))) {
    return { kind: 'denied', abs, code: 'path_blocked', reason: VCS_DIR_REASON };
  }
  const { allow, block } = lists(config, scope);
  const blocked = block.some((b) => isWithin(abs, b));
  const allowListed = allow.some((a) => a === abs);
  if (blocked && allowListed) {
    return { kind: 'conflict', abs, reason: 'Security Alert: path is in both blocklist and allowlist.' };
  }
  if (blocked) return { kind: 'denied', abs, code: 'path_blocked', reason: 'path is in blocklist' };
  if (!inRoot && !allowListed && config.unrestricted !== true) {
    return { kind: 'denied', abs, code: 'path_outside_root', reason: 'path is outside project root' };
  }
  return { kind: 'allowed', abs, inRoot, allowListed };
}

/** Turns a refusing verdict into the coded error every face reports. */
export function verdictError(input: string, verdict: Exclude<Verdict, { kind: 'allowed' }>): HashlineError {
  if (verdict.kind === 'conflict') {
    return new HashlineError('path_conflict', permissionDenied(input, verdict.reason), {
      details: { path: input },
    });
  }
  return new HashlineError(verdict.code, permissionDenied(input, verdict.reason), { details: { path: input } });
}
