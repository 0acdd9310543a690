// Shared by the lock tests: lock records as another process would write them, child processes that
// hold locks, and temp directories.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockNameFor } from '../../src/core/lock-names.js';
import { selfIdentity } from '../../src/io/locks/lock-owner.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const LOCK_MODULE = path.join(REPO, 'src/io/locks/file-lock.ts');

/** A fresh real temp directory. */
export const tempDir = (prefix: string, base = os.tmpdir()) => realpathSync(mkdtempSync(path.join(base, prefix)));

/** The lock file of `file` when its parent exists. */
export const lockOf = (file: string) => path.join(path.dirname(file), lockNameFor(path.basename(file)));

/** The start time of a running process, from /proc/<pid>/stat. */
export function procStart(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** A lock record naming `pid` as it would be written on this boot and pid namespace. */
export function recordOf(pid: number, start: string, target: string): string {
  const me = selfIdentity();
  return `${pid}\nstart=${start}\nboot=${me.boot}\npidns=${me.pidns}\ntarget=${target}\n`;
}

/** The pid of a process that has exited (and was reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  return new Promise<number>((r) => child.on('exit', () => r(child.pid!)));
}

export interface Holder {
  child: ChildProcess;
  /** Resolves once the child is about to ask for its lock. */
  ready: Promise<void>;
  /** Resolves once the child holds its lock. */
  held: Promise<void>;
  exited: Promise<number | null>;
  /** Asks the child to release and exit. */
  release(): void;
}

/**
 * Starts a process (`prefix` runs before node, e.g. setpriv or unshare) that takes the lock on
 * `target` with a LockManager built from `options` (a JS object literal), says `held` on stdout,
 * and holds it until a line arrives on stdin.
 */
/**
 * A child process that takes the lock on `target` and holds it until released. `as` runs it under
 * a command prefix (another user, another pid namespace), loading the code from `as.repo`.
 */
export function holdInChild(target: string, options = '{}', as: { prefix: string[]; repo?: string } = { prefix: [] }): Holder {
  const repo = as.repo ?? REPO;
  const script = `
    import { LockManager } from ${JSON.stringify(path.join(repo, path.relative(REPO, LOCK_MODULE)))};
    const locks = new LockManager(${options});
    process.stdout.write('ready\\n');
    await locks.withLocks([${JSON.stringify(target)}], async () => {
      process.stdout.write('held\\n');
      await new Promise((r) => process.stdin.once('data', r));
    }, { timeoutMs: 20000 });
    process.exit(0);`;
  const argv = [...as.prefix, process.execPath, '--import', 'tsx', '--input-type=module', '-e', script];
  const child = spawn(argv[0]!, argv.slice(1), { cwd: repo, stdio: ['pipe', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      if (c.toString().includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before starting`)));
  });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      if (c.toString().includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before holding`)));
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, ready, held, exited, release: () => child.stdin!.write('go\n') };
}
