// A scratch PostgreSQL server for tests: Debian's binaries (/usr/lib/postgresql/N/bin), `initdb`
// and `pg_ctl` run as the `postgres` user when the tests run as root (initdb refuses root), on a
// temporary directory and a free loopback port, trust authentication, stopped and removed after.
// Without PostgreSQL on the machine the tests that need it skip with a printed notice; under CI
// (CI=true, where .ci/run installs it) that is a failure instead.

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Postgres {
  /** postgres://postgres@127.0.0.1:PORT/DB */
  url(db?: string): string;
  /** Creates a database and returns its URL. */
  createDb(name: string): string;
  stop(): void;
}

function binDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(base, versions[0], 'bin');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export function postgresMissing(): string | undefined {
  return binDir() === undefined ? 'PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb); apt-get install postgresql' : undefined;
}

/**
 * Returns the `skip` option for a test that needs PostgreSQL: false when it is there; under CI a
 * missing PostgreSQL throws (a skip would hide it); locally the reason, printed once.
 */
export function skipWithoutPostgres(): false | string {
  const why = postgresMissing();
  if (why === undefined) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${why}: .ci/run must install it`);
  process.stdout.write(`# skipping PostgreSQL tests: ${why}\n`);
  return why;
}

export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  if (bin === undefined) throw new Error(postgresMissing());
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hashline-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, tool), args, { stdio: 'pipe' });
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
  const url = (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`;
  let stopped = false;
  return {
    url,
    createDb(name) {
      run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`]);
      return url(name);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
