// One load generator for both sides of an HTTP pair: wrk when installed (it costs the machine
// least), npm autocannon otherwise. Loopback targets only; every run is bounded in time.

import { spawn } from 'node:child_process';

export interface LoadResult {
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  tool: 'wrk' | 'autocannon';
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const t = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(t);
      if (code === 0) resolve(out);
      else reject(new Error(`${cmd} exited ${code}: ${err.slice(0, 300)}`));
    });
  });
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== 'localhost' && host !== '[::1]') {
    throw new Error(`refusing to load ${url}: only loopback targets are allowed`);
  }
}

export async function runLoad(
  gen: { wrk: string | null; autocannon: string | null },
  url: string,
  o: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  assertLoopback(url);
  const headers = Object.entries(o.headers ?? {});
  const limit = (o.seconds + 30) * 1000;
  if (gen.wrk) {
    const args = ['-t', '2', '-c', String(o.connections), '-d', `${o.seconds}s`, '--latency'];
    for (const [k, v] of headers) args.push('-H', `${k}: ${v}`);
    const out = await run(gen.wrk, [...args, url], limit);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
    const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    const se = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const errors = se ? se.slice(1).reduce((s, x) => s + Number(x), 0) : 0;
    return { rps, requests, non2xx, errors, tool: 'wrk' };
  }
  if (gen.autocannon) {
    const args = [gen.autocannon, '-c', String(o.connections), '-d', String(o.seconds), '-j'];
    for (const [k, v] of headers) args.push('-H', `${k}=${v}`);
    const out = await run(process.execPath, [...args, url], limit);
    const j = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number };
    return { rps: j.requests.average, requests: j.requests.total, non2xx: j.non2xx, errors: j.errors + j.timeouts, tool: 'autocannon' };
  }
  throw new Error('no load generator (wrk or autocannon)');
}
