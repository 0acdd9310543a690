// `hashline serve` on a free loopback port with a bearer token, ready when /v1/health answers.

import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { spawnCli } from './hashline.js';

export const STRESS_TOKEN = 'hashline-stress-token-0123456789abcdef';

export interface Daemon {
  url: string;
  headers: Record<string, string>;
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
  stderr(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    child.kill(signal);
  });
}

export async function startDaemon(root: string, extra: string[] = []): Promise<Daemon> {
  const port = await freePort();
  const child = spawnCli(['serve', '--root', root, '--host', '127.0.0.1', '--port', String(port), ...extra], { HASHLINE_TOKEN: STRESS_TOKEN });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    if (err.length < 16384) err += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hashline serve exited ${child.exitCode}: ${err.slice(0, 500)}`);
    try {
      const r = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(1000) });
      await r.arrayBuffer();
      if (r.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) {
      await stopChild(child, 'SIGKILL');
      throw new Error(`hashline serve did not answer /v1/health: ${err.slice(0, 500)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    headers: { authorization: `Bearer ${STRESS_TOKEN}` },
    child,
    pid: child.pid!,
    stop: () => stopChild(child),
    stderr: () => err,
  };
}
