// The path guard: every path any face touches comes through `resolve`. It checks the lexical form,
// then resolves symbolic links itself (dangling ones too, so a new file under a link to outside is
// caught) and checks the real path against the same policy. What is then opened is checked again
// by io/guard/open-verified.ts.

import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { errnoText, HashlineError, errnoDetails } from '../../core/errors/errors.js';
import { cannotResolve, linkSwapped, symlinkEscape, tooManyLinks } from '../../core/messages/guard.js';
import {
  assertPathForm,
  containingRoot,
  decide,
  displayPath,
  isWithin,
  normalizeLexical,
  type PathPolicyConfig,
  type Scope,
  verdictError,
} from '../../core/config/path-policy.js';
import { lstatOrNull, realForms, resolveRealSync } from './resolve-real.js';

export interface GuardOptions {
  /** The first root: relative paths resolve against it, and paths inside it are shown relative to it. */
  root: string;
  /** Further roots (an MCP client's other roots): absolute paths inside them are admitted too. */
  roots?: readonly string[] | undefined;
  allow?: readonly string[];
  block?: readonly string[];
  readAllow?: readonly string[] | undefined;
  readBlock?: readonly string[] | undefined;
  /** Exact files refused for writes on every face (the configuration file). */
  protect?: readonly string[] | undefined;
  /** Exact files refused for reads and writes on every face (the token file). */
  seal?: readonly string[] | undefined;
  /** `[write] durability = "fsync"`: writes flush file and directory (default false: atomic rename only). */
  durable?: boolean | undefined;
  /** Absolute directories refused, with everything under them, for reads and writes on every face (the state directory). */
  sealTree?: readonly string[] | undefined;
  /** The operator's unrestricted file access: paths outside the roots are admitted (everything else holds). */
  unrestricted?: boolean | undefined;
  /** `[files] write_vcs_dirs`: writes inside `.git`, `.hg`, `.svn` are admitted (default: refused). */
  writeVcsDirs?: boolean | undefined;
}

export interface ResolvedPath {
  /** The path as the caller gave it. */
  readonly input: string;
  /** Relative to the root when inside it (used in headers and messages). */
  readonly display: string;
  /** Normalized absolute path, links not resolved. */
  readonly lexical: string;
  /** Absolute path with every existing link resolved; a missing tail is appended as given. */
  readonly real: string;
  /** The real path exists. */
  readonly exists: boolean;
  /** The lexical path itself names a symbolic link (an in-bounds link: writes go to its target). */
  readonly viaLink: boolean;
}

export class PathGuard {
  /** The root as configured (normalized), used for display and lexical checks. */
  readonly root: string;
  /** Writes through this guard flush file and directory (`--durability fsync`); else an atomic rename is all. */
  readonly durable: boolean;
  /** The root with links resolved. */
  readonly realRoot: string;
  /** Every root (the first is `root`), as configured and with links resolved. */
  readonly roots: readonly string[];
  readonly realRoots: readonly string[];
  private readonly lexicalPolicy: PathPolicyConfig;
  private readonly realPolicy: PathPolicyConfig;

  private constructor(lexical: PathPolicyConfig, real: PathPolicyConfig, durable: boolean) {
    this.durable = durable;
    this.root = lexical.root;
    this.realRoot = real.root;
    this.roots = Object.freeze([lexical.root, ...(lexical.roots ?? [])]);
    this.realRoots = Object.freeze([real.root, ...(real.roots ?? [])]);
    this.lexicalPolicy = lexical;
    this.realPolicy = real;
  }

  /** The lists in force as configured (normalized, links not resolved), for views of the policy. */
  get lists(): Readonly<PathPolicyConfig> {
    return this.lexicalPolicy;
  }

  /** The real root that holds the real path `real` (the first root when none does). */
  realRootOf(real: string): string {
    return containingRoot(real, this.realPolicy) ?? this.realRoot;
  }

  /** Builds a guard; the root must exist and be a directory. Lists are resolved once, here. */
  static async create(options: GuardOptions): Promise<PathGuard> {
    const realDir = async (dir: string) => {
      try {
        const real = await fsp.realpath(dir);
        const st = await fsp.stat(real);
        if (!st.isDirectory()) throw new Error('not a directory');
        return real;
      } catch (e) {
        throw new HashlineError('not_found', `root \`${dir}\` is not an existing directory`, { cause: e });
      }
    };
    const root = normalizeLexical(options.root, process.cwd());
    const realRoot = await realDir(root);
    const extra = [...new Set((options.roots ?? []).map((r) => normalizeLexical(r, process.cwd())))].filter((r) => r !== root);
    const realExtra: string[] = [];
    for (const r of extra) realExtra.push(await realDir(r));
    const norm = (list: readonly string[] | undefined) =>
      list === undefined ? undefined : list.map((p) => {
        assertPathForm(p);
        return normalizeLexical(p, root);
      });
    const allow = norm(options.allow) ?? [];
    const block = norm(options.block) ?? [];
    const readAllow = norm(options.readAllow);
    const readBlock = norm(options.readBlock);
    const protect = norm(options.protect);
    const seal = norm(options.seal);
    const sealTree = norm(options.sealTree);
    const unrestricted = options.unrestricted === true ? true : undefined;
    const roots = extra.length > 0 ? extra : undefined;
    const writeVcsDirs = options.writeVcsDirs === true;
    const lexical: PathPolicyConfig = Object.freeze({ root, roots, allow, block, readAllow, readBlock, protect, seal, sealTree, unrestricted, writeVcsDirs });
    const real: PathPolicyConfig = Object.freeze({
      root: realRoot,
      roots: realExtra.length > 0 ? realExtra : undefined,
      allow: (await realForms(allow)) ?? [],
      block: (await realForms(block)) ?? [],
      readAllow: await realForms(readAllow),
      readBlock: await realForms(readBlock),
      protect: await realForms(protect),
      seal: await realForms(seal),
      // (a state directory this process may not search is out of every tool's reach anyway)
      sealTree: await realForms(sealTree, true),
      unrestricted,
      writeVcsDirs,
    });
    return new PathGuard(lexical, real, options.durable === true);
  }

  /**
   * Display form of an absolute path: relative to the first root when inside it; a path inside
   * another root is shown whole (the client named that root itself).
   */
  display(abs: string): string {
    if (isWithin(abs, this.root)) return displayPath(abs, this.root);
    if (isWithin(abs, this.realRoot)) return displayPath(abs, this.realRoot);
    return abs;
  }

  /** True when the absolute path lies inside one of the roots (as configured or real). */
  private withinRoots(abs: string): boolean {
    return containingRoot(abs, this.lexicalPolicy) !== undefined || containingRoot(abs, this.realPolicy) !== undefined;
  }

  /** True when a real path passes the policy for the scope (used to re-check what was opened). */
  admitsReal(real: string, scope: Scope): boolean {
    return decide(real, this.realPolicy, scope).kind === 'allowed';
  }

  /**
   * True when the directory `dir`, opened to create, replace or remove `target` in it (its parent),
   * may be used for that: the directory passes the policy, or `target` itself does (a file on the
   * allow list outside the root, whose parent is not admitted: only that name is written there,
   * its siblings stay refused by `resolve`).
   */
  admitsParentOf(dir: string, target: string, scope: Scope): boolean {
    if (this.admitsReal(dir, scope)) return true;
    const slash = target.lastIndexOf('/');
    return (slash === 0 ? '/' : target.slice(0, slash)) === dir && this.admitsReal(target, scope);
  }

  /**
   * True when some tool or route could write at the real path `real`: it lies inside a root (as
   * configured or real) or under an allow-list entry. A program hashline starts never lives there.
   */
  writableByTools(real: string): boolean {
    if (this.withinRoots(real)) return true;
    return [...this.lexicalPolicy.allow, ...this.realPolicy.allow].some((a) => isWithin(real, a));
  }

  /** The refusal of a real path for a scope (worded with its display form), or null when admitted. */
  refusalOfReal(real: string, scope: Scope): HashlineError | null {
    const verdict = decide(real, this.realPolicy, scope);
    return verdict.kind === 'allowed' ? null : verdictError(this.display(real), verdict);
  }

  /**
   * A failure met while resolving `input` (lexically `lexical`), worded with the path as the caller
   * gave it or relative to the root: never an absolute path the walk met (a link's target outside
   * the root, or the root's own location in an operating-system message).
   */
  private resolveError(input: string, lexical: string, e: unknown): HashlineError {
    const shown = this.withinRoots(lexical) ? this.display(lexical) : input;
    if (e instanceof HashlineError) {
      if (e.code === 'link_swapped') return new HashlineError('link_swapped', linkSwapped(shown), { details: { path: shown }, cause: e });
      if (e.code === 'symlink_escape') return new HashlineError('symlink_escape', tooManyLinks(shown), { details: { path: shown }, cause: e });
      return e;
    }
    if ((e as NodeJS.ErrnoException).code === 'ENAMETOOLONG') {
      return new HashlineError('invalid_path', `invalid path ${JSON.stringify(shown)}: a component is longer than the file system allows (ENAMETOOLONG)`, {
        details: { path: shown },
        cause: e,
      });
    }
    return new HashlineError('io_error', cannotResolve(shown, errnoText(e)), { details: { path: shown, ...errnoDetails(e) }, cause: e });
  }

  /**
   * The lexical half of `resolve`: the form of `input` and the policy on its normalized absolute
   * path, which is returned. Throws what `resolve` throws before it touches the disk.
   */
  checkLexical(input: string, scope: Scope): string {
    assertPathForm(input);
    const lexical = normalizeLexical(input, this.root);
    let verdict = decide(lexical, this.lexicalPolicy, scope);
    if (verdict.kind === 'denied' && verdict.code === 'path_outside_root' && containingRoot(lexical, this.realPolicy) !== undefined) {
      verdict = decide(lexical, this.realPolicy, scope);
    }
    if (verdict.kind !== 'allowed') throw verdictError(input, verdict);
    return lexical;
  }

  /**
   * The real path `lexical` (from `checkLexical`) names if its last component is not a link: its
   * parent resolved like `resolve` does (every link followed), the name appended. Null when the
   * parent is missing, the name is not a plain one, or the policy refuses that path: `resolve`
   * then decides (and words the refusal). The caller must open it with O_NOFOLLOW and check the
   * descriptor's real path against it (read-verified-sync.ts `readByNameSync`).
   */
  realIfNameNotLink(lexical: string, scope: Scope): string | null {
    const slash = lexical.lastIndexOf('/');
    const name = lexical.slice(slash + 1);
    if (name === '' || name === '.' || name === '..') return null;
    let parent: { real: string; exists: boolean };
    try {
      parent = resolveRealSync(slash === 0 ? '/' : lexical.slice(0, slash), { lexical: this.root, real: this.realRoot });
    } catch {
      return null; // `resolve` words the failure
    }
    if (!parent.exists) return null;
    const real = parent.real === '/' ? `/${name}` : `${parent.real}/${name}`;
    return this.admitsReal(real, scope) ? real : null;
  }

  /**
   * `resolve` for the name `name` in the directory `dir` that the caller holds open and has verified
   * through its descriptor (its real path is `dir`, as openAnchoredDir checks), when `name` is no
   * link (the caller looked, inside that descriptor): nothing is walked, the policy is asked about
   * the path for `scope` (lexical form and real path). Throws the refusal `resolve` would.
   */
  resolveInVerifiedDir(dir: string, name: string, scope: Scope, exists: boolean): ResolvedPath {
    const real = dir === '/' ? `/${name}` : `${dir}/${name}`;
    if (name === '' || name === '.' || name === '..' || name.includes('/')) {
      throw new HashlineError('invalid_path', `invalid path ${JSON.stringify(this.display(real))}`, { details: { path: this.display(real) } });
    }
    this.checkLexical(real, scope);
    const verdict = decide(real, this.realPolicy, scope);
    if (verdict.kind !== 'allowed') throw verdictError(this.display(real), verdict);
    return { input: real, display: this.display(real), lexical: real, real, exists, viaLink: false };
  }

  /** Checks `input` for `scope` and resolves it. Throws a coded HashlineError when refused. */
  async resolve(input: string, scope: Scope): Promise<ResolvedPath> {
    let lexical = this.checkLexical(input, scope);
    let walked: ReturnType<typeof resolveRealSync>;
    try {
      walked = resolveRealSync(lexical, { lexical: this.root, real: this.realRoot });
    } catch (e) {
      throw this.resolveError(input, lexical, e);
    }
    const { real, exists, links } = walked;
    const realVerdict = decide(real, this.realPolicy, scope);
    if (realVerdict.kind !== 'allowed') {
      if (real !== lexical && realVerdict.kind === 'denied' && realVerdict.code === 'path_outside_root') {
        throw new HashlineError('symlink_escape', symlinkEscape(input), { details: { path: input } });
      }
      throw verdictError(input, realVerdict);
    }
    // A walk that followed no link lstat-ed every component of `lexical` itself (the walk from
    // realRoot does so when that is the root), the last one included: no need to lstat it again.
    const walkedItself = lexical !== this.root && (this.root === this.realRoot || !isWithin(lexical, this.root));
    let viaLink = false;
    try {
      viaLink = links === 0 && walkedItself ? false : (lstatOrNull(lexical)?.isSymbolicLink() ?? false);
    } catch (e) {
      throw this.resolveError(input, lexical, e);
    }
    lexical = normalizeLexical(lexical, '/');
    return {
      input,
      display: this.display(lexical),
      lexical,
      real,
      exists,
      viaLink,
    };
  }
}
