// Where an import (lang/references/imports.ts) may point, as real paths, and which files might hold an import
// of a given target (the bytes a candidate must contain before it is parsed). Resolution leans to
// the safe side: when an import could name a target under the language's usual rules, it counts.
// - scripts: relative specifiers only ("./x", "../x"), with the extensions and index files Node and
//   TypeScript try, and TypeScript's "./x.js" for ./x.ts; bare and aliased specifiers are packages.
// - style sheets: relative to the sheet, with Sass partials (_x.scss) and index files.
// - Python: relative imports exactly; an absolute `a.b` counts for any file under the root whose path
//   ends in a/b.py or a/b/__init__.py (where Python looks for top-level packages depends on how it is run).
// - Rust: `mod x;` next to the declaring file (x.rs, x/mod.rs, or its #[path]); `use crate::/self::/
//   super::` through the crate's src directory (beside the nearest Cargo.toml).
// - Go: the import path of the target's package (go.mod's module path plus the directory).

import path from 'node:path';
import type { ImportFamily, ImportRef } from './imports.js';

const SCRIPT_EXTS = ['.ts', '.tsx', '.d.ts', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'];
const STYLE_EXTS = ['.scss', '.sass', '.css'];
const PY_EXTS = ['.py', '.pyi'];

export interface ResolveContext {
  /** The `src` directory of the crate holding `file` (beside the nearest Cargo.toml), or null. */
  rustSrcRoot(file: string): string | null;
}

export interface Candidates {
  /** Real paths the import may name. */
  paths: string[];
  /** Path endings any of which names the import (Python absolute imports). */
  suffixes: string[];
  /** A Go import path. */
  goPath?: string;
}

const none = (): Candidates => ({ paths: [], suffixes: [] });
const isRelative = (spec: string) => spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../');

function scriptPaths(spec: string, dir: string): string[] {
  if (!isRelative(spec)) return [];
  const base = path.posix.resolve(dir, spec.replace(/[?#].*$/, ''));
  const out = [base, ...SCRIPT_EXTS.map((e) => base + e), ...SCRIPT_EXTS.map((e) => `${base}/index${e}`)];
  const m = /\.(m|c)?js(x)?$/.exec(base);
  if (m) {
    const stem = base.slice(0, -m[0].length);
    const kind = m[1] ?? '';
    out.push(`${stem}.${kind}ts`, `${stem}.d.${kind}ts`, ...(m[2] || kind === '' ? [`${stem}.tsx`] : []));
  }
  return out;
}

function stylePaths(spec: string, dir: string): string[] {
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec) || spec.startsWith('//') || spec.startsWith('~') || spec.startsWith('/')) return [];
  const base = path.posix.resolve(dir, spec.replace(/[?#].*$/, ''));
  const partial = path.posix.join(path.posix.dirname(base), `_${path.posix.basename(base)}`);
  return [
    base,
    partial,
    ...STYLE_EXTS.flatMap((e) => [base + e, partial + e, `${base}/_index${e}`, `${base}/index${e}`]),
  ];
}

const pyModule = (base: string) => [...PY_EXTS.map((e) => base + e), ...PY_EXTS.map((e) => `${base}/__init__${e}`)];

function pythonCandidates(ref: Extract<ImportRef, { kind: 'python' }>, importer: string): Candidates {
  const modules = [ref.module, ...ref.names.map((n) => [...ref.module, ...n.split('.')])].filter((m) => m.length > 0);
  if (ref.level === 0) return { paths: [], suffixes: modules.flatMap((m) => pyModule(m.join('/'))) };
  let pkg = path.posix.dirname(importer);
  for (let i = 1; i < ref.level; i++) pkg = path.posix.dirname(pkg);
  return { paths: modules.flatMap((m) => pyModule(path.posix.join(pkg, ...m))), suffixes: [] };
}

/** Where the child modules of a Rust file live (both readings for a file that may be a crate root). */
function rustModDirs(file: string): string[] {
  const dir = path.posix.dirname(file);
  const base = path.posix.basename(file);
  if (base === 'mod.rs' || base === 'lib.rs' || base === 'main.rs') return [dir];
  return [path.posix.join(dir, base.slice(0, -'.rs'.length)), dir];
}

const rustModule = (base: string) => [`${base}.rs`, `${base}/mod.rs`];

function rustCandidates(ref: Extract<ImportRef, { kind: 'rust-mod' | 'rust-use' }>, importer: string, ctx: ResolveContext): Candidates {
  if (ref.kind === 'rust-mod') {
    const dirs = rustModDirs(importer);
    if (ref.pathAttr !== undefined) return { paths: dirs.map((d) => path.posix.resolve(d, ref.pathAttr!)), suffixes: [] };
    return { paths: dirs.flatMap((d) => rustModule(path.posix.join(d, ref.name))), suffixes: [] };
  }
  const [head, ...rest] = ref.segments;
  let bases: string[];
  if (head === 'crate') {
    const src = ctx.rustSrcRoot(importer);
    bases = src === null ? [] : [src];
  } else if (head === 'self') {
    bases = rustModDirs(importer);
  } else {
    // super (possibly repeated): the parent module's directory
    let ups = 1;
    while (rest[0] === 'super') {
      rest.shift();
      ups++;
    }
    bases = rustModDirs(importer).map((d) => {
      let b = d;
      for (let i = 0; i < ups; i++) b = path.posix.dirname(b);
      return b;
    });
  }
  const paths: string[] = [];
  for (const b of bases) for (let k = 1; k <= rest.length; k++) paths.push(...rustModule(path.posix.join(b, ...rest.slice(0, k))));
  return { paths, suffixes: [] };
}

/** The files `ref`, found in the file at real path `importer`, may name. */
export function candidatesOf(ref: ImportRef, importer: string, family: ImportFamily, ctx: ResolveContext): Candidates {
  const dir = path.posix.dirname(importer);
  switch (ref.kind) {
    case 'path':
      return { paths: family === 'style' ? stylePaths(ref.spec, dir) : scriptPaths(ref.spec, dir), suffixes: [] };
    case 'python':
      return pythonCandidates(ref, importer);
    case 'rust-mod':
    case 'rust-use':
      return rustCandidates(ref, importer, ctx);
    case 'go':
      return { ...none(), goPath: ref.path };
  }
}

export interface Target {
  real: string;
  /** The import path of the target's package, when it is the last Go file of it. */
  goImportPath?: string | undefined;
}

export function names(c: Candidates, t: Target): boolean {
  if (c.goPath !== undefined) return t.goImportPath !== undefined && c.goPath === t.goImportPath;
  return c.paths.includes(t.real) || c.suffixes.some((s) => t.real.endsWith(`/${s}`));
}

/** The import families whose files may import the target at `real`. */
export function familiesFor(real: string): ImportFamily[] {
  const ext = path.posix.extname(real).toLowerCase();
  if (PY_EXTS.includes(ext)) return ['python'];
  if (ext === '.rs') return ['rust'];
  if (ext === '.go') return ['go'];
  if (STYLE_EXTS.includes(ext)) return ['style', 'script'];
  return ['script'];
}

const INDEX_STEMS = new Set(['index', '_index', '__init__', 'mod']);

/**
 * What a file must contain to possibly import the target through `family` (its module's name), and
 * whether files under the target's own directory are candidates whatever they contain (an index
 * file is named by its directory, which `import "."` or `from . import` does not spell out).
 */
export function needleFor(real: string, family: ImportFamily, goImportPath?: string): { needle: string; underDir: boolean } {
  if (family === 'go') return { needle: goImportPath ?? '', underDir: false };
  const base = path.posix.basename(real);
  let stem = base.replace(/\.d\.[mc]?ts$/, '').replace(/\.[^.]*$/, '');
  if (family === 'style') stem = stem.replace(/^_/, '');
  if (INDEX_STEMS.has(stem) || INDEX_STEMS.has(`_${stem}`)) return { needle: path.posix.basename(path.posix.dirname(real)), underDir: true };
  return { needle: stem, underDir: false };
}
