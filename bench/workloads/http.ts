// The HTTP file API (`hashline serve`): GET of a 4 KiB file over 64 connections against nginx,
// a line window at the end (peak RSS) and at the start (first byte) of a 1 GiB file, GET
// /v1/fs/tar of a 10,000-file tree against `tar -cf - DIR`, and PUT /v1/fs/tar of the same archive
// against `tar -xf` (which does not fsync). Floors, measured in the same runs: the bare node:http
// verified-read server (bench/lib/verified-read-server.mjs) for the GETs of a file; the daemon's
// idle RSS for the window; a bare node:http server sending the archive's bytes from memory
// (bench/lib/blob-server.mjs) for GET tar; the atomic member writes for PUT tar.
// BENCH_HTTP_ROWS=ID,ID (e.g. http-tar-put) runs only those rows.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, promises as fsp, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startDaemon, stopChild, type Daemon } from '../lib/daemon.js';
import { bigFile, sourceTree } from '../lib/fixtures.js';
import { runLoad } from '../lib/load.js';
import { startNginx } from '../lib/nginx.js';
import { freePort, rssOf, waitForHttp } from '../lib/ports.js';
import { treeWriteFloorMs } from '../lib/floors.js';
import { alternate, alternateWithFloor, median, timeMs } from '../lib/stats.js';
import { failed, finish, notBuilt, REPORT, type Row, type Workload } from '../lib/types.js';
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
async function startCeiling(ctx: BenchContext, root: string, workers: number, name = 'file4k.txt'): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const script = path.join(ctx.opts.repo, 'bench/lib/verified-read-server.mjs');
  const child = spawn(process.execPath, [script, ctx.opts.repo, root, String(port), String(workers)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/?path=${name}`);
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
    const [one, two] = ceilingRps.map((x) => median(x));
    const row = finish({
      ...base,
      status: 'measured',
      hashline: median(s.a),
      anchor: median(s.b),
      samples: { hashline: s.a, anchor: s.b },
      floor: { name: "bare node:http doing only hashline's verified read, one process (a ceiling)", value: one, samples: ceilingRps[0], goal: { kind: 'ratio', bound: 'min', value: 0.9, text: '≥ 0.9×' } },
    });
    const ratio = (x: number) => (x / median(s.b)).toFixed(2);
    row.note = `${tool}, 64 connections, ${o.seconds} s per run${non2xx ? `, ${non2xx} non-2xx from hashline` : ''}; the bare verified-read server does ${ratio(one!)}x of nginx in one process, ${two!.toFixed(0)} req/s (${ratio(two!)}x) in two`;
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
  writeFileSync(path.join(path.dirname(file), 'small.txt'), 'x'.repeat(639) + '\n');
  const bare = await startCeiling(ctx, path.dirname(file), 1, 'small.txt');
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
    const firstByte = async (url: string, headers: Record<string, string>) => {
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      const reader = r.body!.getReader();
      await reader.read();
      const ms = performance.now() - t0;
      await reader.cancel();
      return ms;
    };
    const t = await alternate(ctx.opts.reps, () => firstByte(q(1, 10), d.headers), () => firstByte(`${bare.url}/?path=small.txt`, {}), 1);
    const ttfb = t.a;
    return [
      finish({
        ...end,
        status: mem ? 'measured' : 'failed',
        hashline: mem?.hwm,
        floor: { name: 'the same daemon idle before the window (its RSS)', value: before?.rss },
        note: `${size / MiB} MiB file, ${lines} lines; end window took ${median(endTimes).toFixed(0)} ms (p50); RSS ${before?.rss.toFixed(0)} MiB idle before it, peak ${mem?.hwm.toFixed(0)} MiB (includes start-up)`,
      }),
      finish({
        ...start,
        status: 'measured',
        hashline: median(ttfb),
        samples: { hashline: ttfb, anchor: [] },
        floor: { name: 'first byte of a 640-byte file from the bare node:http verified-read server', value: median(t.b), samples: t.b },
      }),
    ];
  } finally {
    await bare.stop();
    await d.stop();
  }
}

/** bench/lib/blob-server.mjs serving `file` on loopback; its URL and a stop. */
async function startBlob(ctx: BenchContext, file: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ctx.opts.repo, 'bench/lib/blob-server.mjs'), file, String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`);
  } catch (e) {
    await stopChild(child);
    throw e;
  }
  return { url, stop: () => stopChild(child) };
}

/** Untimed GETs of the archive before the timed rounds (besides the one that saves it and the untimed first round). */
const TAR_GET_WARMUPS = 3;

async function tarTree(ctx: BenchContext, base: Omit<Row, 'status'>, n: number): Promise<Row> {
  const tar = ctx.anchors.tar;
  if (!tar) return { ...base, status: 'anchor missing' };
  // Every side is drained the same way: a child process writes the archive into a pipe that this
  // process counts. The anchor's child is `tar -cf - DIR`; hashline's and the floor's are `curl -s
  // --fail URL`, so they also pay for an HTTP client (curl's) that tar does not need. Draining with
  // fetch in this process instead charged hashline for undici's web streams (about 15-25 ms of CPU
  // more per 15 MiB than a pipe, on the same two cores), a cost the anchor side never had.
  const curl = findCurl();
  if (!curl) return { ...base, status: 'anchor missing', note: 'curl not found (apt-get install -y curl)' };
  const tree = sourceTree(ctx.opts.work, n);
  const d = await startDaemon(ctx.opts.repo, ctx.opts.work);
  const archive = path.join(ctx.opts.work, `tree-${n}.tar`);
  let blob: { url: string; stop: () => Promise<void> } | undefined;
  try {
    const url = `${d.url}/v1/fs/tar?path=${encodeURIComponent(path.basename(tree))}`;
    const auth = Object.entries(d.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
    // the floor sends hashline's own archive (the same bytes) from memory
    await new Promise<void>((resolve, reject) => {
      const child = spawn(curl, ['-s', '--fail', '-o', archive, ...auth, url], { stdio: 'ignore' });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited ${code}`))));
    });
    blob = await startBlob(ctx, archive);
    // a daemon serves many GETs in its life: untimed GETs first, so the timed ones run warm code
    // (the read thread loaded, the walk's and the writer's functions optimized)
    for (let i = 0; i < TAR_GET_WARMUPS; i++) await pipedBytes(curl, ['-s', '--fail', ...auth, url]);
    let hBytes = 0;
    let aBytes = 0;
    let fBytes = 0;
    const s = await alternateWithFloor(
      ctx.opts.heavyReps,
      async () => hBytes / MiB / ((await timeMs(async () => (hBytes = await pipedBytes(curl, ['-s', '--fail', ...auth, url])))) / 1000),
      async () => aBytes / MiB / ((await timeMs(async () => (aBytes = await pipedBytes(tar, ['-cf', '-', path.basename(tree)], ctx.opts.work)))) / 1000),
      async () => fBytes / MiB / ((await timeMs(async () => (fBytes = await pipedBytes(curl, ['-s', '--fail', `${blob!.url}/`])))) / 1000),
      1,
    );
    const row = finish({
      ...base,
      status: 'measured',
      hashline: median(s.a),
      anchor: median(s.b),
      samples: { hashline: s.a, anchor: s.b },
      floor: { name: "bare node:http sending the same archive's bytes from memory, drained by curl (a ceiling)", value: median(s.f), samples: s.f },
    });
    row.note = `all drained from a child pipe (curl, tar); the daemon warmed by ${TAR_GET_WARMUPS + 2} untimed GETs; archive bytes: hashline ${hBytes}, tar ${aBytes}`;
    return row;
  } finally {
    await blob?.stop();
    await d.stop();
  }
}

/** Files of `dir` (relative paths) and their bytes. */
async function treeFiles(dir: string, rel = ''): Promise<Array<{ rel: string; data: Buffer }>> {
  const out: Array<{ rel: string; data: Buffer }> = [];
  for (const e of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await treeFiles(dir, r)));
    else if (e.isFile() && !e.name.startsWith('.')) out.push({ rel: r, data: readFileSync(path.join(dir, r)) });
  }
  return out;
}

/** Children of `dir` compared by relative path and bytes: the first difference, or null. */
async function sameTree(a: string, b: string): Promise<string | null> {
  const fa = await treeFiles(a);
  const fb = new Map((await treeFiles(b)).map((f) => [f.rel, f.data]));
  if (fa.length !== fb.size) return `${fa.length} files against ${fb.size}`;
  for (const f of fa) if (!fb.get(f.rel)?.equals(f.data)) return f.rel;
  return null;
}

/** The same PUT into a daemon in `--durability fsync`, alternated with the durable floor (p50 of two rounds after one). */
async function tarPutFsync(
  ctx: BenchContext,
  root: string,
  archive: string,
  files: ReadonlyArray<{ rel: string; data: Uint8Array }>,
  run: (cmd: string, args: string[]) => Promise<void>,
  fresh: (dir: string) => void,
): Promise<{ hashline: number; floor: number }> {
  const curl = findCurl()!;
  const d = await startDaemon(ctx.opts.repo, root, {}, ['--durability', 'fsync']);
  try {
    const h = path.join(root, 'hf');
    const f = path.join(root, 'ff');
    const auth = Object.entries(d.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
    const s = await alternateWithFloor(
      2,
      async () => {
        fresh(h);
        return timeMs(() => run(curl, ['-s', '--fail', '-T', archive, ...auth, `${d.url}/v1/fs/tar?path=${encodeURIComponent(h)}`]));
      },
      async () => 0,
      async () => {
        fresh(f);
        return treeWriteFloorMs(files.map((x) => ({ target: path.join(f, x.rel), data: x.data })), 'fsync');
      },
      1,
    );
    return { hashline: median(s.a), floor: median(s.f) };
  } finally {
    await d.stop();
  }
}

async function tarPut(ctx: BenchContext, base: Omit<Row, 'status'>, n: number): Promise<Row> {
  const tar = ctx.anchors.tar;
  const curl = findCurl();
  if (!tar || !curl) return { ...base, status: 'anchor missing', note: tar ? 'curl not found' : 'GNU tar not found' };
  const tree = sourceTree(ctx.opts.work, n);
  const root = path.join(ctx.opts.work, 'put-tar');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = path.join(ctx.opts.work, `put-${n}.tar`);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tar, ['-cf', archive, '-C', tree, '.'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited ${code}`))));
  });
  const files = (await treeFiles(tree)).map((f) => ({ rel: f.rel, data: f.data }));
  const d = await startDaemon(ctx.opts.repo, root);
  try {
    const h = path.join(root, 'h');
    const a = path.join(root, 'a');
    const f = path.join(root, 'f');
    const auth = Object.entries(d.headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
    const run = (cmd: string, args: string[]) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(cmd, args, { stdio: 'ignore' });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(cmd)} exited ${code}`))));
      });
    const fresh = (dir: string) => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
    };
    let checked = false;
    // (an extraction of 10,000 files takes seconds: three rounds after the untimed one)
    const s = await alternateWithFloor(
      Math.min(3, ctx.opts.heavyReps),
      async () => {
        fresh(h);
        return timeMs(() => run(curl, ['-s', '--fail', '-T', archive, ...auth, `${d.url}/v1/fs/tar?path=${encodeURIComponent(h)}`]));
      },
      async () => {
        fresh(a);
        const ms = await timeMs(() => run(tar, ['-xf', archive, '-C', a]));
        if (!checked) {
          const diff = await sameTree(h, a);
          if (diff !== null) throw new Error(`PUT /v1/fs/tar and tar -xf left different trees (${diff})`);
          checked = true;
        }
        return ms;
      },
      async () => {
        fresh(f);
        return treeWriteFloorMs(files.map((x) => ({ target: path.join(f, x.rel), data: x.data })));
      },
      1,
    );
    const durable = await tarPutFsync(ctx, root, archive, files, run, fresh);
    return finish({
      ...base,
      status: 'measured',
      hashline: median(s.a),
      anchor: median(s.b),
      samples: { hashline: s.a, anchor: s.b },
      floor: { name: 'the member writes in atomic mode: directories made, each file written to a temporary file and renamed (no flush: the default durability)', value: median(s.f), samples: s.f, goal: { kind: 'ratio', bound: 'max', value: 1.5, text: '≤ 1.5×' } },
      note: `${files.length} files, archive ${(readFileSync(archive).length / MiB).toFixed(1)} MiB sent by curl -T; both sides extract into an empty directory; identical trees; fsync mode: ${durable.hashline.toFixed(0)} ms against its durable floor (the same writes, each file flushed before its rename and each directory after) ${durable.floor.toFixed(0)} ms (${(durable.hashline / durable.floor).toFixed(2)}x)`,
      extra: { fsync: durable },
    });
  } finally {
    await d.stop();
    rmSync(root, { recursive: true, force: true });
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
      issue: 22,
      unit: 'req/s',
      direction: 'higher',
      anchorName: 'nginx (same file)',
      goal: REPORT,
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
      issue: 22,
      unit: 'MiB/s',
      direction: 'higher',
      anchorName: 'tar -cf - DIR',
      goal: { kind: 'ratio', bound: 'min', value: 0.8, text: '≥ 0.8×' },
    };
    const putRow: Omit<Row, 'status'> = {
      id: 'http-tar-put',
      title: `PUT /v1/fs/tar of the same ${n}-file archive (atomic, the default durability)`,
      issue: 22,
      unit: 'ms',
      direction: 'lower',
      anchorName: 'tar -xf (no fsync)',
      goal: REPORT,
    };
    if (!ctx.serve) return [fileRow, endRow, startRow, tarRow, putRow].map((r) => notBuilt(r, '`hashline serve`'));
    const rows: Row[] = [];
    // BENCH_HTTP_ROWS=http-tar-put,... runs only those rows of this workload (a narrower measurement)
    const wanted = process.env.BENCH_HTTP_ROWS?.split(',').map((s) => s.trim());
    const guard = async (f: () => Promise<Row[]>, bases: Omit<Row, 'status'>[]) => {
      if (wanted && !bases.some((b) => wanted.includes(b.id))) return;
      try {
        rows.push(...(await f()));
      } catch (e) {
        rows.push(...bases.map((b) => failed(b, e)));
      }
    };
    await guard(async () => [await getFile(ctx, fileRow)], [fileRow]);
    await guard(() => windows(ctx, endRow, startRow), [endRow, startRow]);
    await guard(async () => [await tarTree(ctx, tarRow, n)], [tarRow]);
    await guard(async () => [await tarPut(ctx, putRow, n)], [putRow]);
    return rows;
  },
};
