// What the reference scan of a delete needs to know from the disk about module roots: the Go files
// of a package directory, the module path go.mod declares, and the nearest Cargo.toml above a Rust
// file. Lookups never climb above the root; manifests are read with every check of a verified read.

import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../core/config/path-policy.js';
import type { PathGuard } from '../guard/path-guard.js';
import { readVerifiedSync } from '../read/read-verified-sync.js';

const MAX_MANIFEST_BYTES = 1024 * 1024;

/** The nearest directory from `dir` up to `top` (both real) holding a file `name`, or null. */
export function findUp(dir: string, name: string, top: string): string | null {
  for (let d = dir; isWithin(d, top); d = path.dirname(d)) {
    try {
      if (lstatSync(path.join(d, name)).isFile()) return d;
    } catch {
      // not here
    }
    if (d === top) break;
  }
  return null;
}

/** The non-test Go files of the package in `dir` (real paths). */
export function goPackageFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.go') && !e.name.endsWith('_test.go'))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The import path of the Go package in `dir`: go.mod's `module` plus the directory below it.
 * `missing`: no go.mod up to the root; `unreadable`: one the read policy refuses or that names no module.
 */
export function goImportPath(guard: PathGuard, dir: string): string | 'missing' | 'unreadable' {
  const modDir = findUp(dir, 'go.mod', guard.realRoot);
  if (modDir === null) return 'missing';
  const file = path.join(modDir, 'go.mod');
  let text: string;
  try {
    const read = readVerifiedSync(guard, file, guard.display(file), MAX_MANIFEST_BYTES);
    if (!read) return 'unreadable';
    text = read.bytes.toString('utf8');
  } catch {
    return 'unreadable';
  }
  const m = /^\s*module\s+("?)([^\s"]+)\1\s*$/m.exec(text);
  if (!m) return 'unreadable';
  const rel = path.relative(modDir, dir);
  return rel === '' ? m[2]! : `${m[2]}/${rel.split(path.sep).join('/')}`;
}
