// The owner rule of chattr (file_write, file_patch, file_chattr): with [files.chattr] chown = "same"
// (the default) a chown may only name the file's current owner and group (the process's own for a
// new file), which keeps a request honest without letting an agent give files away; "any" leaves the
// decision to the operating system. Mode bounds (0..0o777, no setuid, setgid or sticky) are the
// schema's.

import { promises as fsp } from 'node:fs';
import type { ChownPolicy } from '../../core/config/config-schema.js';
import { HashlineError } from '../../core/errors/errors.js';
import type { ResolvedPath } from '../../io/guard/path-guard.js';
import type { Engine } from '../engine.js';

export async function checkChattr(
  _engine: Engine,
  rp: ResolvedPath,
  chattr: { chmod?: number | undefined; chown?: { uid: number; gid: number } | undefined },
  policy: ChownPolicy,
): Promise<void> {
  if (chattr.chown === undefined || policy === 'any') return;
  let owner: { uid: number; gid: number };
  try {
    const st = await fsp.stat(rp.real);
    owner = { uid: st.uid, gid: st.gid };
  } catch {
    owner = { uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1 };
  }
  if (chattr.chown.uid !== owner.uid || chattr.chown.gid !== owner.gid) {
    throw new HashlineError(
      'chattr_refused',
      `chown of \`${rp.display}\` to ${chattr.chown.uid}:${chattr.chown.gid} refused: only its current owner ${owner.uid}:${owner.gid} may be named (the operator can allow any with [files.chattr] chown = "any")`,
      { details: { filePath: rp.display, owner, requested: chattr.chown } },
    );
  }
}
