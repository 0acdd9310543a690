// GET /v1/fs/tar: an uncompressed tar of a directory, streamed straight from npm `tar`'s packer.
// A pre-walk that never follows links counts members and bytes against the caps (413) before the
// first byte is sent; links are archived as links; members the guard's read policy refuses (a
// block-listed subtree) are left out of both the walk and the archive; devices, fifos and sockets
// are never archived.

import { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { create as tarCreate } from 'tar';
import { HashlineError } from '../core/errors.js';
import { NO_SUCH_DIRECTORY, PATH_NOT_DIRECTORY, PATH_REQUIRED, treeTooManyBytes, treeTooManyMembers } from '../core/messages/http.js';
import { openVerified } from '../io/open-verified.js';
import type { PathGuard } from '../io/path-guard.js';
import type { Engine } from '../tools/engine.js';
import type { HttpLimits } from './limits.js';

function archivable(st: Pick<Stats, 'isFile' | 'isDirectory' | 'isSymbolicLink'>): boolean {
  return st.isFile() || st.isDirectory() || st.isSymbolicLink();
}

/** Counts what the archive of `dir` will hold; throws `too_large` past the caps. */
export async function preWalk(guard: PathGuard, dir: string, display: string, limits: HttpLimits): Promise<{ members: number; bytes: number }> {
  let members = 1;
  let bytes = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fsp.readdir(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!archivable(e)) continue;
      const abs = `${d}/${e.name}`;
      if (!guard.admitsReal(abs, 'read')) continue;
      if (++members > limits.maxTarMembers) throw new HashlineError('too_large', treeTooManyMembers(display, limits.maxTarMembers));
      if (e.isDirectory()) stack.push(abs);
      else if (e.isFile()) {
        bytes += (await fsp.lstat(abs).catch(() => ({ size: 0 }))).size;
        if (bytes > limits.maxTarBytes) throw new HashlineError('too_large', treeTooManyBytes(display, limits.maxTarBytes));
      }
    }
  }
  return { members, bytes };
}

/** Resolves, checks and pre-walks the directory, then returns the tar stream of it. */
export async function packDirectory(engine: Engine, limits: HttpLimits, query: { path?: string | undefined }): Promise<Readable> {
  if (query.path === undefined) throw new HashlineError('invalid_arguments', PATH_REQUIRED);
  const rp = await engine.guard.resolve(query.path, 'read');
  if (!rp.exists) throw new HashlineError('not_found', NO_SUCH_DIRECTORY, { details: { path: rp.display } });
  let vh;
  try {
    vh = await openVerified(engine.guard, rp, 'read', 'dir');
  } catch (e) {
    const code = (e as HashlineError).code;
    if (code === 'not_a_directory') throw new HashlineError('not_a_directory', PATH_NOT_DIRECTORY, { cause: e });
    if (code === 'not_found') throw new HashlineError('not_found', NO_SUCH_DIRECTORY, { cause: e });
    throw e;
  }
  await vh.handle.close();
  const cwd = rp.real;
  await preWalk(engine.guard, cwd, rp.display, limits);
  let members = 0;
  let bytes = 0;
  const pack = tarCreate(
    {
      cwd,
      portable: true,
      follow: false,
      filter: (p: string, entry: Stats | unknown) => {
        const st = entry as Stats;
        if (!archivable(st)) return false;
        const abs = path.resolve(cwd, p);
        if (abs !== cwd && !engine.guard.admitsReal(abs, 'read')) return false;
        // the tree may grow after the pre-walk: the caps hold for what is actually sent
        if (++members > limits.maxTarMembers || (bytes += st.isFile() ? st.size : 0) > limits.maxTarBytes) {
          queueMicrotask(() => pack.destroy(new HashlineError('too_large', treeTooManyMembers(rp.display, limits.maxTarMembers))));
          return false;
        }
        return true;
      },
    },
    ['.'],
  );
  return pack as unknown as Readable;
}
