// Running a child process as the user nobody (uid 65534), for the tests of locks and refusals
// across users: possible when this process is root and `setpriv` is installed. nobody must read the
// checkout: where a folder above it is private (a clone inside `mktemp -d`), the checkout is
// bind-mounted once per test process at a world-readable place (unmounted at exit), and the child
// loads the code from there. Otherwise the reason, which the tests skip with (a failure under CI).

import { mkdtempSync, rmdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PREFIX = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

/** How to run as nobody: the command prefix, and the checkout as nobody can reach it. */
export interface Nobody {
  prefix: string[];
  /** The checkout (REPO, or its world-readable mount): load sources and run tsx from here. */
  repo: string;
}

let found: Nobody | { why: string } | undefined;

export function asNobody(): Nobody | { why: string } {
  return (found ??= look());
}

/** `file` (under the checkout) as nobody reaches it. */
export const inRepo = (nobody: Nobody, file: string) => path.join(nobody.repo, path.relative(REPO, file));

const readable = (dir: string) =>
  spawnSync(PREFIX[0]!, [...PREFIX.slice(1), 'test', '-r', path.join(dir, 'node_modules/tsx/package.json')]).status === 0;

function look(): Nobody | { why: string } {
  if (process.getuid?.() !== 0) return { why: 'needs root to run a process as nobody' };
  if (spawnSync(PREFIX[0]!, [...PREFIX.slice(1), 'true']).status !== 0) return { why: 'needs setpriv to run a process as nobody' };
  if (readable(REPO)) return { prefix: PREFIX, repo: REPO };
  const mount = mkdtempSync(path.join('/tmp', 'hashline-nobody-'));
  spawnSync('chmod', ['0755', mount]);
  const bound = spawnSync('mount', ['--bind', REPO, mount], { encoding: 'utf8' });
  if (bound.status !== 0) {
    rmdirSync(mount);
    return { why: `nobody cannot read the checkout at ${REPO} (a folder above it is private) and it cannot be bind-mounted elsewhere (${bound.stderr.trim()})` };
  }
  process.once('exit', () => {
    spawnSync('umount', ['--lazy', mount]);
    spawnSync('rmdir', [mount]);
  });
  if (!readable(mount)) return { why: `nobody cannot read the checkout at ${REPO}, nor its mount at ${mount} (node_modules links to a private folder?)` };
  return { prefix: PREFIX, repo: mount };
}
