// Loopback ports and readiness polling for the servers the bench starts.

import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `url` until it answers (any status below 500) or `timeoutMs` passes. */
export async function waitForHttp(url: string, timeoutMs = 15_000, headers: Record<string, string> = {}): Promise<void> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const r = await fetch(url, { headers, signal: AbortSignal.timeout(2000) });
      await r.arrayBuffer();
      if (r.status < 500) return;
      last = new Error(`status ${r.status}`);
    } catch (e) {
      last = e;
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${(last as Error)?.message ?? last}`);
}

/** Peak and current resident set of a process, in MiB, from /proc (null where unavailable). */
export async function rssOf(pid: number): Promise<{ rss: number; hwm: number } | null> {
  try {
    const { readFile } = await import('node:fs/promises');
    const s = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}
