// The shipped bin's `hashline serve` daemon on loopback with a bearer token, for HTTP workloads.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { shippedBin } from './mcp.js';
import { freePort, waitForHttp } from './ports.js';

export const BENCH_TOKEN = 'hashline-bench-token-0123456789abcdef';

export interface Daemon {
  url: string;
  pid: number;
  headers: Record<string, string>;
  stop(): Promise<void>;
}

/** True when the shipped bin knows `serve` (an unknown command exits 2 with "unknown command"). */
export function serveBuilt(repo: string): boolean {
  const r = spawnSync(process.execPath, [shippedBin(repo), 'serve', '--help'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 && !`${r.stderr}`.includes('unknown command');
}

export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startDaemon(repo: string, root: string, extraEnv: Record<string, string> = {}, extraArgs: readonly string[] = []): Promise<Daemon> {
  const port = await freePort();
  const child = spawn(process.execPath, [shippedBin(repo), 'serve', '--root', root, '--host', '127.0.0.1', '--port', String(port), ...extraArgs], {
    cwd: root,
    env: { ...process.env, HASHLINE_TOKEN: BENCH_TOKEN, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    if (err.length < 16384) err += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
  try {
    await waitForHttp(`${url}/v1/health`, 20_000, headers);
  } catch (e) {
    await stopChild(child);
    throw new Error(`hashline serve did not start: ${(e as Error).message}; stderr: ${err.slice(0, 400)}`);
  }
  return { url, pid: child.pid!, headers, stop: () => stopChild(child) };
}
