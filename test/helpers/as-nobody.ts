// Running a child process as the user nobody (uid 65534), for the tests of locks and refusals
// across users: possible when this process is root, `setpriv` is installed, and nobody can read the
// checkout (a clone inside a private folder, such as one made by `mktemp -d`, cannot be loaded by
// nobody). Otherwise the reason, which the tests skip with.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PREFIX = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

export function asNobody(): { prefix: string[] } | { why: string } {
  if (process.getuid?.() !== 0) return { why: 'needs root to run a process as nobody' };
  if (spawnSync(PREFIX[0]!, [...PREFIX.slice(1), 'true']).status !== 0) return { why: 'needs setpriv to run a process as nobody' };
  if (spawnSync(PREFIX[0]!, [...PREFIX.slice(1), 'test', '-r', path.join(REPO, 'package.json')]).status !== 0) {
    return { why: `nobody cannot read the checkout at ${REPO} (a folder above it is private)` };
  }
  return { prefix: PREFIX };
}
