// The entries of a directory tree for fs_list, depth-limited and in name order: directories,
// files (size, and line count and SHA-256 for small files), and symbolic links, shown with where they
// lead (inside the root) or only that they lead outside; links are never followed. The rules are
// the walk's (io/tree/walk.ts): `.git` and `node_modules` skipped, `.gitignore` honoured (unless asked
// not to), and nothing the read policy refuses is listed, a directory included.

import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import type { Scope } from '../../core/config/path-policy.js';
import type { PathGuard } from '../guard/path-guard.js';
import { resolveRealSync } from '../guard/resolve-real.js';
import { readVerifiedSync } from '../read/read-verified-sync.js';
import { ancestorRules, loadIgnore, readDirEntries, type IgnoreRules } from './walk.js';

/** Line counts are taken for files up to this size ... */
const COUNT_FILE_BYTES = 256 * 1024;
/** ... while the listing has read no more than this in all. */
const COUNT_TOTAL_BYTES = 8 * 1024 * 1024;

export interface ListedEntry {
  /** Relative to the root. */
  path: string;
  name: string;
  /** 0 for the entries directly under the listed directory. */
  depth: number;
  type: 'dir' | 'file' | 'link';
  size?: number;
  lines?: number;
  binary?: boolean;
  /** A file read for its line count: the SHA-256 of the bytes read. */
  sha256?: string;
  /** A directory at the depth limit: how many entries it holds (not listed). */
  entries?: number;
  /** A link inside the root: where it leads (relative to the root). */
  target?: string;
  /** A link: what it leads to ('outside' when outside the root, never followed). */
  target_type?: 'dir' | 'file' | 'missing' | 'other' | 'outside';
}

export interface ListOptions {
  depth: number;
  includeIgnored: boolean;
  /** With a glob: keep files and links whose path relative to the listed directory matches. */
  match?: ((rel: string) => boolean) | undefined;
  signal?: AbortSignal | undefined;
  scope?: Scope;
}

function countLines(bytes: Buffer): { lines: number } | { binary: true } {
  if (bytes.indexOf(0) >= 0) return { binary: true };
  let lines = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) lines++;
    else if (b === 0x0d && bytes[i + 1] !== 0x0a) lines++;
  }
  const last = bytes[bytes.length - 1];
  if (bytes.length > 0 && last !== 0x0a && last !== 0x0d) lines++;
  return { lines };
}

function linkInfo(guard: PathGuard, abs: string, scope: Scope): Pick<ListedEntry, 'target' | 'target_type'> | null {
  let real: string;
  let exists: boolean;
  try {
    ({ real, exists } = resolveRealSync(abs, { lexical: guard.root, real: guard.realRoot }));
  } catch {
    return { target_type: 'outside' };
  }
  if (!guard.admitsReal(real, scope)) {
    // outside the root: say so and no more; blocked inside: not listed at all
    const outside = guard.display(real) === real;
    return outside ? { target_type: 'outside' } : null;
  }
  if (!exists) return { target: guard.display(real), target_type: 'missing' };
  try {
    const st = statSync(real);
    return { target: guard.display(real), target_type: st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other' };
  } catch {
    return { target: guard.display(real), target_type: 'missing' };
  }
}

/** Lists `startReal` (a real directory) to `depth` levels below it (1: its own entries only). */
export async function listEntries(guard: PathGuard, startReal: string, options: ListOptions): Promise<ListedEntry[]> {
  const scope = options.scope ?? 'read';
  const base = options.includeIgnored ? null : await ancestorRules(guard.realRootOf(startReal), startReal);
  const out: ListedEntry[] = [];
  let counted = 0;
  const rel = (abs: string) => abs.slice(startReal.length + 1);

  const visit = async (dir: string, depth: number, rules: IgnoreRules[] | null): Promise<boolean> => {
    if (options.signal?.aborted) return false;
    const own = rules === null ? null : await loadIgnore(dir);
    const here = rules === null ? null : own ? [...rules, own] : rules;
    const got = await readDirEntries(guard, dir, here, scope);
    if (!got) return false;
    const names = [
      ...got.subdirs.filter((d) => guard.admitsReal(d, scope)).map((abs) => ({ abs, type: 'dir' as const })),
      ...got.files.map((abs) => ({ abs, type: 'file' as const })),
      ...got.links.map((abs) => ({ abs, type: 'link' as const })),
    ].sort((a, b) => (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
    let kept = false;
    for (const { abs, type } of names) {
      const name = abs.slice(abs.lastIndexOf('/') + 1);
      const entry: ListedEntry = { path: guard.display(abs), name, depth, type };
      if (type === 'dir') {
        const at = out.length;
        out.push(entry);
        if (depth + 1 < options.depth) {
          const inner = await visit(abs, depth + 1, here);
          if (options.match && !inner) out.length = at; // no match below: the directory goes too
          kept ||= !options.match || inner;
        } else {
          if (options.match) {
            out.length = at;
            continue;
          }
          const below = await readDirEntries(guard, abs, here, scope);
          entry.entries = below ? below.subdirs.filter((d) => guard.admitsReal(d, scope)).length + below.files.length + below.links.length : 0;
          kept = true;
        }
        continue;
      }
      if (options.match && !options.match(rel(abs))) continue;
      if (type === 'link') {
        const info = linkInfo(guard, abs, scope);
        if (info === null) continue;
        Object.assign(entry, info);
      } else {
        try {
          const st = lstatSync(abs);
          entry.size = st.size;
          if (st.size <= COUNT_FILE_BYTES && counted + st.size <= COUNT_TOTAL_BYTES) {
            let read: ReturnType<typeof readVerifiedSync> = null;
            try {
              read = readVerifiedSync(guard, abs, entry.path, COUNT_FILE_BYTES, scope);
            } catch {
              read = null; // swapped or unreadable: no count
            }
            if (read) {
              counted += read.bytes.length;
              Object.assign(entry, countLines(read.bytes), { sha256: createHash('sha256').update(read.bytes).digest('hex') });
            }
          }
        } catch {
          continue; // gone meanwhile
        }
      }
      out.push(entry);
      kept = true;
    }
    return kept;
  };
  await visit(startReal, 0, base);
  return out;
}
