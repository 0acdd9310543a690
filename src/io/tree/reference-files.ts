// The files a delete's reference scan must read: every file under the root whose language can
// import the targets, `.gitignore`d ones included (an ignored file may import a target all the
// same, and the tools may read it), with `.git` and `node_modules` skipped and links never
// followed. Files the read policy refuses cannot be read: they are counted, never named, so the
// scan can say it is no proof.

import { promises as fsp, type Dirent } from 'node:fs';
import { HashlineError } from '../../core/errors/errors.js';
import { isOwnName } from '../../core/own-names.js';
import type { PathGuard } from '../guard/path-guard.js';
import { SKIPPED_DIRS } from './walk.js';

export interface ReferenceFiles {
  /** Real paths the scan may read, sorted within each directory. */
  readonly files: string[];
  /** Files that `accept` takes but the read policy refuses, by `key(real)`. */
  readonly refused: Map<string, number>;
}

/** The files under `rootReal` that `key` gives a key (a language family that can import a target). */
export async function referenceFiles(
  guard: PathGuard,
  rootReal: string,
  key: (real: string) => string | undefined,
  signal?: AbortSignal,
): Promise<ReferenceFiles> {
  const files: string[] = [];
  const refused = new Map<string, number>();
  const stack = [rootReal];
  while (stack.length > 0) {
    if (signal?.aborted) throw new HashlineError('aborted', 'aborted: nothing was deleted');
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (isOwnName(e.name)) continue;
      const abs = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.includes(e.name)) subdirs.push(abs);
        continue;
      }
      if (!e.isFile()) continue;
      const k = key(abs);
      if (k === undefined) continue;
      if (guard.admitsReal(abs, 'read')) files.push(abs);
      else refused.set(k, (refused.get(k) ?? 0) + 1);
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
  return { files, refused };
}
