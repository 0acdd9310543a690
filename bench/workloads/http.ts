// The HTTP file API (`hashline serve`): GET of a 4 KiB file over 64 connections against nginx,
// a line window at the end (peak RSS) and at the start (first byte) of a 1 GiB file, and
// GET /v1/fs/tar of a 10,000-file tree against `tar -cf - DIR`.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDaemon, stopChild, type Daemon } from '../lib/daemon.js';
import { bigFile, sourceTree } from '../lib/fixtures.js';
import { runLoad } from '../lib/load.js';
import { startNginx } from '../lib/nginx.js';
import { freePort, rssOf, waitForHttp } from '../lib/ports.js';
import { alternate, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, type Row, type Workload } from '../lib/types.js';
import type { BenchContext } from '../lib/context.js';

const MiB = 1048576;

async function drain(r: Response): Promise<number> {
  if (!r.body) return 0;
  let n = 0;
  for await (const chunk of r.body) n += (chunk as Uint8Array).length;
  return n;
}

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number }> {
  const r = await fetch(url, { headers });
  return { status: r.status, bytes: await drain(r) };
}

/** Bytes a child writes to its stdout, counted from a pipe (the time is the caller's to take). */
function pipedBytes(cmd: string, args: string[], cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let n = 0;
    child.stdout.on('data', (c: Buffer) => (n += c.length));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(n) : reject(new Error(`${path.basename(cmd)} exited ${code}`))));
  });
}

/** curl on the PATH, or null. */
function findCurl(): string | null {
  for (const d of (process.env.PATH ?? '').split(':').filter(Boolean)) {
    if (existsSync(path.join(d, 'curl'))) return path.join(d, 'curl');
  }
  return null;
}

/** bench/lib/verified-read-server.mjs on loopback with `workers` processes; its URL and a stop. */
async function startCeiling(ctx: BenchContext, root: string, workers: number): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const script = path.join(ctx.opts.repo, 'bench/lib/verified-read-server.mjs');
  const child = spawn(process.execPath, [script, ctx.opts.repo, root, String(port), String(workers)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/?path=file4k.txt`);
  } catch (e) {
    await stopChild(child);
    throw e;
  }
  return { url, stop: () => stopChild(child) };
}

async function getFile(ctx: BenchContext, base: Omit<Row, 'status'>): Promise<Row> {
  const nginxBin = ctx.anchors.nginx;
  if (!nginxBin || (!ctx.anchors.wrk && !ctx.anchors.autocannon)) return { ...base, status: 'anchor missing' };
  const root = path.join(ctx.opts.work, 'http-root');
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, 'file4k.txt'), 'x'.repeat(4095) + '\n');
  const d = await startDaemon(ctx.opts.repo, root);
  const ng = await startNginx(nginxBin, ctx.opts.work, root);
  // the ceiling for any Node server doing hashline's per-request check, in one and in two processes
  const ceilings = [await startCeiling(ctx, root, 1), await startCeiling(ctx, root, 2)];
  try {
    const hUrl = `${d.url}/v1/fs/file?path=file4k.txt`;
    const nUrl = `${ng.url}/file4k.txt`;
    for (const [u, h] of [[hUrl, d.headers], [nUrl, {}]] as const) {
      const r = await get(u, h);
      if (r.status !== 200 || r.bytes !== 4096) throw new Error(`${u} answered ${r.status} with ${r.bytes} bytes`);
    }
    const o = { connections: 64, seconds: ctx.opts.loadSeconds };
    const gen = { wrk: ctx.anchors.wrk, autocannon: ctx.anchors.autocannon };
    let tool = '';
    let non2xx = 0;
    const ceilingRps: number[][] = [[], []];
    const s = await alternate(
      ctx.opts.quick ? 1 : 3,
      async () => {
        const r = await runLoad(gen, hUrl, { ...o, headers: d.headers });
        tool = r.tool;
        non2xx += r.non2xx;
        return r.rps;
      },
      async () => {
        const rps = (await runLoad(gen, nUrl, o)).rps;
        for (const [i, c] of ceilings.entries()) ceilingRps[i]!.push((await runLoad(gen, `${c.url}/?path=file4k.txt`, o)).rps);
        return rps;
      },
    );
    const row = finish({ ...base, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } });
    const [one, two] = ceilingRps.map((x) => median(x));
    const ratio = (x: number) => (x / median(s.b)).toFixed(2);
    row.note = `${tool}, 64 connections, ${o.seconds} s per run${non2xx ? `, ${non2xx} non-2xx from hashline` : ''}; ceiling: bare node:http doing only hashline's verified read, ${one!.toFixed(0)} req/s in one process (${ratio(one!)}x of nginx), ${two!.toFixed(0)} in two (${ratio(two!)}x)`;
    row.extra = { ceilingOneProcessRps: ceilingRps[0], ceilingTwoProcessesRps: ceilingRps[1] };
    return row;
  } finally {
    for (const c of ceilings) await c.stop();
    await ng.stop();
    await d.stop();
  }
}

async function windows(ctx: BenchContext, end: Omit<Row, 'status'>, start: Omit<Row, 'status'>): Promise<Row[]> {
  const size = ctx.opts.quick ? 64 * MiB : 1024 * MiB;
  const { file, lines } = bigFile(ctx.opts.work, size);
  const d: Daemon = await startDaemon(ctx.opts.repo, path.dirname(file));
  try {
    const q = (a: number, b: number) => `${d.url}/v1/fs/file?path=big.txt&start_line=${a}&end_line=${b}`;
    const before = await rssOf(d.pid);
    const endTimes: number[] = [];
    for (let i = 0; i < Math.max(2, ctx.opts.heavyReps); i++) {
      endTimes.push(
        await timeMs(async () => {
          const r = await get(q(lines - 9, lines), d.headers);
          if (r.status !== 200 || r.bytes !== 640) throw new Error(`end window answered ${r.status} with ${r.bytes} bytes`);
        }),
      );
    }
    const mem = await rssOf(d.pid);
    const ttfb: number[] = [];
    for (let i = 0; i < ctx.opts.reps; i++) {
      const t0 = performance.now();
      const r = await fetch(q(1, 10), { headers: d.headers });
      const reader = r.body!.getReader();
      await reader.read();
      ttfb.push(performance.now() - t0);
      await reader.cancel();
    }
    return [
      finish({
        ...end,
        status: mem ? 'measured' : 'failed',
        hashline: mem?.hwm,
        note: `${size / MiB} MiB file, ${lines} lines; end window took ${median(endTimes).toFixed(0)} ms (p50); RSS ${before?.rss.toFixed(0)} MiB idle before it, peak ${mem?.hwm.toFixed(0)} MiB (includes start-up)`,
      }),
      finish({ ...start, status: 'measured', hashline: median(ttfb), samples: { hashline: ttfb, anchor: [] } }),
    ];
  } finally {
    await d.stop();
  }
}

async function tarTree(ctx: BenchContext, base: Omit<Row, 'status'>, n: number): Promise<Row> {
  const tar = ctx.anchors.tar;
  if (!tar) return { ...base, status: 'anchor missing' };
  const tree = sourceTree(ctx.opts.work, n);
  const d = await startDaemon(ctx.opts.repo, ctx.opts.work);
  // Both sides are drained the same way: a child process writes the archive into a pipe that this
  // process counts. The anchor's child is `tar -cf - DIR`; hashline's is `curl -s --fail URL`, so
  // hashline also pays for an HTTP client (curl's) that tar does not need. Draining hashline with
  // fetch in this process instead charged it for undici's web streams (about 15-25 ms of CPU more per
  // 15 MiB than a pipe, on the same two cores), a cost the anchor side never had. Without curl,
  // fetch is used and the note says so.
  const curl = findCurl();
  try {
    const url = `${d.url}/v1/fs/tar?path=${encodeURIComponent(path.basename(tree))}`;
    let hBytes = 0;
    let aBytes = 0;
    const s = await alternate(
      ctx.opts.heavyReps,
      async () => {
        const ms = await timeMs(async () => {
          if (curl) {
            const auth = Object.entries(d.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
            hBytes = await pipedBytes(curl, ['-s', '--fail', ...auth, url]);
            return;
          }
          const r = await get(url, d.headers);
          if (r.status !== 200) throw new Error(`GET /v1/fs/tar answered ${r.status}`);
          hBytes = r.bytes;
        });
        return hBytes / MiB / (ms / 1000);
      },
      async () => {
        const ms = await timeMs(async () => (aBytes = await pipedBytes(tar, ['-cf', '-', path.basename(tree)], ctx.opts.work)));
        return aBytes / MiB / (ms / 1000);
      },
      1,
    );
    const row = finish({ ...base, status: 'measured', hashline: median(s.a), anchor: median(s.b), samples: { hashline: s.a, anchor: s.b } });
    row.note = `${curl ? 'both drained from a child pipe (curl, tar)' : 'hashline drained by fetch (no curl), tar from a pipe'}; archive bytes: hashline ${hBytes}, tar ${aBytes}`;
    return row;
  } finally {
    await d.stop();
  }
}

export const http: Workload = {
  id: 'http',
  async run(ctx) {
    const n = ctx.opts.quick ? 500 : 10_000;
    const size = ctx.opts.quick ? '64 MiB' : '1 GiB';
    const fileRow: Omit<Row, 'status'> = {
      id: 'http-get-4k',
      title: 'GET /v1/fs/file of a 4 KiB file, 64 connections',
      issue: 6,
      unit: 'req/s',
      direction: 'higher',
      anchorName: 'nginx (same file)',
      goal: { kind: 'ratio', bound: 'min', value: 0.5, text: '≥ 0.5×' },
    };
    const endRow: Omit<Row, 'status'> = {
      id: 'http-window-end-rss',
      title: `window at the end of a ${size} file: peak RSS`,
      issue: 6,
      unit: 'MiB',
      direction: 'lower',
      anchorName: '—',
      goal: { kind: 'absolute', bound: 'max', value: 100, text: '< 100 MiB' },
    };
    const startRow: Omit<Row, 'status'> = {
      id: 'http-window-start-ttfb',
      title: `window at the start of a ${size} file: first byte`,
      issue: 6,
      unit: 'ms',
      direction: 'lower',
      anchorName: '—',
      goal: { kind: 'absolute', bound: 'max', value: 50, text: '< 50 ms' },
    };
    const tarRow: Omit<Row, 'status'> = {
      id: 'http-tar',
      title: `GET /v1/fs/tar of a ${n}-file tree`,
      issue: 6,
      unit: 'MiB/s',
      direction: 'higher',
      anchorName: 'tar -cf - DIR',
      goal: { kind: 'ratio', bound: 'min', value: 0.7, text: '≥ 0.7×' },
    };
    if (!ctx.serve) return [fileRow, endRow, startRow, tarRow].map((r) => notBuilt(r, '`hashline serve`'));
    const rows: Row[] = [];
    const guard = async (f: () => Promise<Row[]>, bases: Omit<Row, 'status'>[]) => {
      try {
        rows.push(...(await f()));
      } catch (e) {
        rows.push(...bases.map((b) => failed(b, e)));
      }
    };
    await guard(async () => [await getFile(ctx, fileRow)], [fileRow]);
    await guard(() => windows(ctx, endRow, startRow), [endRow, startRow]);
    await guard(async () => [await tarTree(ctx, tarRow, n)], [tarRow]);
    return rows;
  },
};
