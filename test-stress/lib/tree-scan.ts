// Reads a directory tree after a kill: every regular file with its content hash, the temp files
// left behind (names holding `.hashline-tmp-`), the lock files (beside the files they lock; counted
// apart: they are hashline's, not content), skipping hashline's own state folder.

import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isLockName } from '../../src/core/lock-names.js';
import { TEMP_MARKER } from '../../src/core/own-names.js';

export const sha1 = (b: string | Uint8Array) => createHash('sha1').update(b).digest('hex');

export interface TreeScan {
  files: Map<string, string>;
  temps: string[];
  locks: string[];
}

export async function scanTree(root: string): Promise<TreeScan> {
  const files = new Map<string, string>();
  const temps: string[] = [];
  const locks: string[] = [];
  async function walk(rel: string): Promise<void> {
    for (const e of await fsp.readdir(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name.includes(TEMP_MARKER)) temps.push(r);
      else if (isLockName(e.name)) locks.push(r);
      else if (e.isDirectory()) {
        if (e.name !== '.hashline') await walk(r);
      } else if (e.isFile()) files.set(r, sha1(await fsp.readFile(path.join(root, r))));
    }
  }
  await walk('');
  return { files, temps, locks };
}
