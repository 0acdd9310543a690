// Temporary directory trees for tests: a root (the project) beside an `outside` directory that
// attacks aim at, and a snapshot of every file under a directory to prove nothing changed.

import { mkdtempSync, promises as fsp, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Sandbox {
  /** The parent of `root` and `outside`. */
  base: string;
  root: string;
  outside: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(files: Record<string, string | Uint8Array> = {}): Promise<Sandbox> {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-test-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await fsp.mkdir(root);
  await fsp.mkdir(outside);
  await fsp.writeFile(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    await fsp.mkdir(path.dirname(p), { recursive: true });
    await fsp.writeFile(p, content);
  }
  return { base, root, outside, cleanup: () => fsp.rm(base, { recursive: true, force: true }) };
}

/** Every entry under `dir` with its type, mode, and content (files) or target (links). */
export async function snapshotTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(d: string): Promise<void> {
    for (const e of await fsp.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const st = await fsp.lstat(p);
      const rel = path.relative(dir, p);
      if (st.isSymbolicLink()) out.set(rel, `link:${await fsp.readlink(p)}`);
      else if (st.isDirectory()) {
        out.set(rel, `dir:${(st.mode & 0o7777).toString(8)}`);
        await walk(p);
      } else out.set(rel, `file:${(st.mode & 0o7777).toString(8)}:${(await fsp.readFile(p)).toString('base64')}`);
    }
  }
  await walk(dir);
  return out;
}
