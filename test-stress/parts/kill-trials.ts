// kill -9 at random moments while hashline writes: whole-file writes (fs_write), edits (fs_edit),
// rollbacks (fs_rollback), rewrites (fs_ast_edit), the atomic-write layer itself, and the daemon's
// PUT /v1/fs/file and PUT /v1/fs/tar. After each kill every file must hold one full content that
// was written or sent (never a torn or half-written one); temp files (`.hashline-tmp-`) are
// counted right after the kill and again once hashline has been started on the tree again.

import { spawn } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create as createTar } from 'tar';
import { cliArgs, connect, listedTools, REPO, serveBuilt, textOf, type Session } from '../lib/hashline.js';
import { startDaemon, type Daemon } from '../lib/daemon.js';
import type { StressPlan } from '../lib/scale.js';
import { scanTree, sha1 } from '../lib/tree-scan.js';
import { isLockName } from '../../src/core/lock-names.js';
import { ownerState, parseOwner } from '../../src/io/locks/lock-owner.js';
import { versionText } from '../lib/versions.js';

/** Allowed content hashes per relative path. */
type Allowed = Map<string, Set<string>>;

interface Started {
  pid: number;
  /** Runs operations until one fails (the kill makes it fail). */
  loop(): Promise<void>;
  cleanup(): Promise<void>;
}

interface Mode {
  name: string;
  prepare(dir: string, allowed: Allowed): Promise<void>;
  start(dir: string, allowed: Allowed): Promise<Started>;
}

export interface KillTrialsReport {
  trials: number;
  byMode: Record<string, number>;
  opsCompleted: number;
  torn: number;
  tornByMode: Record<string, number>;
  tornSamples: string[];
  unexpected: number;
  unexpectedSamples: string[];
  /** Distinct temp files seen right after the kills. */
  tempsAfterKill: number;
  straysAfterRestart: number;
  strayAfterRestartSamples: string[];
  /** hashline-spool-* folders that appeared in the temp dir during the trials (bodies of killed PUT /v1/fs/tar). */
  spoolDirsLeft: number;
  /**
   * Lock files (and locks written but never linked, and takeover guards) still beside the trials'
   * files after the restart with no live owner: a path locked until the next writer takes it over.
   */
  deadLocksAfterRestart: number;
  deadLockSamples: string[];
  notBuilt: string[];
  cli: string;
}

/** Lock-family files (locks, staging files, takeover guards) under `dir` whose owner is not running. */
async function deadLocksUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await deadLocksUnder(p)));
    else if (isLockName(e.name)) {
      const rec = parseOwner(await fsp.readFile(p, 'utf8').catch(() => ''));
      const state = rec === null ? 'no owner' : ownerState(rec);
      if (state !== 'alive') out.push(`${path.basename(dir)}/${e.name} (${rec === null ? state : `pid ${rec.pid}: ${state}`})`);
    }
  }
  return out;
}

async function spoolDirs(): Promise<Set<string>> {
  return new Set((await fsp.readdir(os.tmpdir())).filter((n) => n.startsWith('hashline-spool-')));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function allow(allowed: Allowed, rel: string, content: string | Uint8Array): void {
  let set = allowed.get(rel);
  if (!set) allowed.set(rel, (set = new Set()));
  set.add(sha1(content));
}

async function seed(dir: string, allowed: Allowed, rel: string, content: string): Promise<void> {
  await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
  await fsp.writeFile(path.join(dir, rel), content);
  allow(allowed, rel, content);
}

function ok(r: Awaited<ReturnType<Session['call']>>, what: string): Record<string, unknown> {
  if (r.isError) throw new Error(`${what} refused: ${textOf(r).slice(0, 200)}`);
  return (r.structuredContent ?? {}) as Record<string, unknown>;
}

const firstHash = (sc: Record<string, unknown>): string => (sc.results as { file_hash: string }[])[0]!.file_hash;

let opsCompleted = 0;
/** `--durability` of every hashline process a trial starts (the trials run in both modes). */
let durability: 'atomic' | 'fsync' = 'atomic';
const durabilityArgs = () => ['--durability', durability];

function mcpMode(name: string, prepare: Mode['prepare'], body: (s: Session, dir: string, allowed: Allowed) => Promise<void>): Mode {
  return {
    name,
    prepare,
    async start(dir, allowed) {
      const s = await connect(dir, durabilityArgs());
      return { pid: s.pid()!, loop: () => body(s, dir, allowed), cleanup: () => s.close().catch(() => undefined) };
    },
  };
}

const writeFiles = ['w0.txt', 'w1.txt', 'w2.txt'];
const fsWrite = mcpMode(
  'fs_write',
  async (dir, allowed) => {
    for (const f of writeFiles) {
      await seed(dir, allowed, f, versionText(f, 0));
      for (let v = 1; v < 6; v++) allow(allowed, f, versionText(f, v));
    }
  },
  async (s) => {
    for (let i = 0; ; i++) {
      const picks = [writeFiles[i % 3]!, writeFiles[(i + 1) % 3]!];
      ok(await s.call('fs_write', { targets: picks.map((f) => ({ path: f, text: versionText(f, 1 + ((i * 7 + f.length) % 5)) })) }), 'fs_write');
      opsCompleted++;
    }
  },
);

function lineEdit(lines: string[], n: number): { next: string[]; ops: string } {
  const k = 1 + Math.floor(Math.random() * lines.length);
  const text = `edited line ${k} op ${n} ${Math.random().toString(36).slice(2)}`;
  const next = [...lines];
  next[k - 1] = text;
  return { next, ops: `replace ${k}:\n+${text}` };
}

const asText = (lines: string[]) => `${lines.join('\n')}\n`;
const readLines = (p: string) => readFileSync(p, 'utf8').replace(/\n$/, '').split('\n');

async function readTag(s: Session, rel: string): Promise<string> {
  return firstHash(ok(await s.call('fs_read', { targets: [{ path: rel, line_range: '1-1' }] }), 'fs_read'));
}

const fsEdit = mcpMode(
  'fs_edit',
  (dir, allowed) => seed(dir, allowed, 'e.txt', versionText('e.txt', 0, 2000)),
  async (s, dir, allowed) => {
    let lines = readLines(path.join(dir, 'e.txt'));
    let tag = await readTag(s, 'e.txt');
    for (let n = 0; ; n++) {
      const { next, ops } = lineEdit(lines, n);
      allow(allowed, 'e.txt', asText(next));
      tag = firstHash(ok(await s.call('fs_edit', { targets: [{ path: 'e.txt', file_hash: tag, ops }] }), 'fs_edit'));
      lines = next;
      opsCompleted++;
    }
  },
);

const fsRollback = mcpMode(
  'fs_rollback',
  (dir, allowed) => seed(dir, allowed, 'r.txt', versionText('r.txt', 0, 2000)),
  async (s, dir, allowed) => {
    const file = path.join(dir, 'r.txt');
    let lines = readLines(file);
    let tag = await readTag(s, 'r.txt');
    for (let n = 0; ; n++) {
      const { next, ops } = lineEdit(lines, n);
      allow(allowed, 'r.txt', asText(next));
      tag = firstHash(ok(await s.call('fs_edit', { targets: [{ path: 'r.txt', file_hash: tag, ops }] }), 'fs_edit'));
      opsCompleted++;
      const rb = ok(await s.call('fs_rollback', { path: 'r.txt', hash: '' }), 'fs_rollback') as { file_hash: string };
      tag = rb.file_hash;
      lines = readLines(file);
      opsCompleted++;
    }
  },
);

const astFiles = ['a0.ts', 'a1.ts', 'a2.ts'];
const astText = (f: string, fn: string) => Array.from({ length: 600 }, (_, i) => `${fn}(${i}, '${f}');`).join('\n') + '\n';
const fsAstEdit = mcpMode(
  'fs_ast_edit',
  async (dir, allowed) => {
    for (const f of astFiles) {
      await seed(dir, allowed, f, astText(f, 'alpha'));
      allow(allowed, f, astText(f, 'beta'));
    }
  },
  async (s) => {
    for (let i = 0; ; i++) {
      const [from, to] = i % 2 === 0 ? ['alpha', 'beta'] : ['beta', 'alpha'];
      ok(await s.call('fs_ast_edit', { ops: [{ pat: `${from}($$$A)`, out: `${to}($$$A)` }], paths: astFiles }), 'fs_ast_edit');
      opsCompleted++;
    }
  },
);

const ioFiles = ['io0.txt', 'io1.txt', 'io2.txt'];
const ioAtomic: Mode = {
  name: 'writeAtomic',
  async prepare(dir, allowed) {
    for (const f of ioFiles) {
      await seed(dir, allowed, f, versionText(f, 0));
      for (let v = 1; v < 4; v++) allow(allowed, f, versionText(f, v));
    }
  },
  async start(dir) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'test-stress/lib/atomic-writer.ts'), dir, ...ioFiles], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, STRESS_DURABILITY: durability },
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`atomic writer exited ${code}: ${err.slice(0, 300)}`)));
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    return { pid: child.pid!, loop: () => exited, cleanup: async () => undefined };
  },
};

function daemonMode(name: string, prepare: Mode['prepare'], body: (d: Daemon, dir: string) => Promise<void>): Mode {
  return {
    name,
    prepare,
    async start(dir) {
      const d = await startDaemon(dir, durabilityArgs());
      const exited = new Promise<void>((r) => (d.child.exitCode !== null ? r() : d.child.once('exit', () => r())));
      return {
        pid: d.pid,
        loop: async () => {
          try {
            await body(d, dir);
          } finally {
            await exited;
          }
        },
        cleanup: async () => undefined,
      };
    },
  };
}

const putFiles = ['p0.bin', 'p1.bin'];
const putText = (f: string, v: number) => versionText(f, v, 8000);
const httpPut = daemonMode(
  'http PUT /v1/fs/file',
  async (dir, allowed) => {
    for (const f of putFiles) {
      await seed(dir, allowed, f, putText(f, 0));
      for (let v = 1; v < 4; v++) allow(allowed, f, putText(f, v));
    }
  },
  async (d) => {
    for (let i = 0; ; i++) {
      const f = putFiles[i % 2]!;
      const r = await fetch(`${d.url}/v1/fs/file?path=${f}`, { method: 'PUT', headers: d.headers, body: putText(f, 1 + (i % 3)) });
      await r.arrayBuffer();
      if (r.status !== 204) throw new Error(`PUT answered ${r.status}`);
      opsCompleted++;
    }
  },
);

const tarMembers = ['m0.txt', 'm1.txt', 'sub/m2.txt', 'sub/m3.txt'];
const archives: Buffer[] = [];
export const TAR_MODE = 'http PUT /v1/fs/tar';
const httpTar = daemonMode(
  TAR_MODE,
  async (dir, allowed) => {
    archives.length = 0;
    for (const m of tarMembers) {
      await seed(dir, allowed, `t/${m}`, versionText(m, 0, 1500));
      for (let v = 1; v < 3; v++) allow(allowed, `t/${m}`, versionText(m, v, 1500));
    }
    for (let v = 1; v < 3; v++) {
      const staging = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-stress-tar-'));
      for (const m of tarMembers) {
        await fsp.mkdir(path.dirname(path.join(staging, m)), { recursive: true });
        await fsp.writeFile(path.join(staging, m), versionText(m, v, 1500));
      }
      const chunks: Buffer[] = [];
      for await (const c of createTar({ cwd: staging, portable: true }, ['.'])) chunks.push(c as Buffer);
      archives.push(Buffer.concat(chunks));
      await fsp.rm(staging, { recursive: true, force: true });
    }
  },
  async (d, dir) => {
    for (let i = 0; ; i++) {
      const r = await fetch(`${d.url}/v1/fs/tar?path=${encodeURIComponent(path.join(dir, 't'))}`, {
        method: 'PUT',
        headers: { ...d.headers, 'content-type': 'application/x-tar' },
        body: new Uint8Array(archives[i % 2]!),
      });
      const body = await r.text();
      if (r.status !== 204) throw new Error(`PUT tar answered ${r.status}: ${body.slice(0, 200)}`);
      opsCompleted++;
    }
  },
);

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

export async function killTrials(plan: StressPlan, onTrial?: (i: number) => void, mode: 'atomic' | 'fsync' = 'atomic', trials = plan.killTrials): Promise<KillTrialsReport> {
  durability = mode;
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-stress-kill-')));
  opsCompleted = 0;
  const report: KillTrialsReport = {
    trials: 0,
    byMode: {},
    opsCompleted: 0,
    torn: 0,
    tornByMode: {},
    tornSamples: [],
    unexpected: 0,
    unexpectedSamples: [],
    tempsAfterKill: 0,
    straysAfterRestart: 0,
    strayAfterRestartSamples: [],
    spoolDirsLeft: 0,
    deadLocksAfterRestart: 0,
    deadLockSamples: [],
    notBuilt: [],
    cli: cliArgs().includes('tsx') ? 'source (tsx)' : 'dist',
  };
  try {
    const tools = await listedTools(base);
    const serve = serveBuilt();
    const modes: Mode[] = [ioAtomic];
    const want: [Mode, boolean, string][] = [
      [fsWrite, tools.has('fs_write'), 'fs_write'],
      [fsEdit, tools.has('fs_read') && tools.has('fs_edit'), 'fs_read/fs_edit'],
      [fsRollback, tools.has('fs_read') && tools.has('fs_edit') && tools.has('fs_rollback'), 'fs_rollback'],
      [fsAstEdit, tools.has('fs_ast_edit'), 'fs_ast_edit'],
      [httpPut, serve, '`hashline serve`'],
      [httpTar, serve, '`hashline serve`'],
    ];
    for (const [m, built, what] of want) {
      if (built) modes.push(m);
      else report.notBuilt.push(`${m.name} (${what} not built yet)`);
    }
    // STRESS_KILL_MODES=tar,fs_edit keeps the modes whose names contain one of the words.
    const only = process.env.STRESS_KILL_MODES?.split(',').filter(Boolean);
    if (only) modes.splice(0, modes.length, ...modes.filter((m) => only.some((w) => m.name.includes(w))));
    if (modes.length === 0) throw new Error(`STRESS_KILL_MODES=${process.env.STRESS_KILL_MODES} matches no mode that is built`);
    const allowed = new Map<string, Allowed>();
    for (const m of modes) {
      const dir = path.join(base, m.name.replace(/[^a-z0-9_]+/gi, '-'));
      await fsp.mkdir(dir, { recursive: true });
      allowed.set(m.name, new Map());
      await m.prepare(dir, allowed.get(m.name)!);
    }
    const spoolsBefore = await spoolDirs();
    const strays = new Set<string>();
    const tempsSeen = new Set<string>();
    const dirOf = (m: Mode) => path.join(base, m.name.replace(/[^a-z0-9_]+/gi, '-'));
    const runTrial = async (m: Mode, delayMs: number): Promise<void> => {
      const dir = dirOf(m);
      const al = allowed.get(m.name)!;
      const h = await m.start(dir, al);
      let loopError: unknown;
      const loop = h.loop().catch((e: unknown) => (loopError = e));
      await sleep(delayMs);
      process.kill(h.pid, 'SIGKILL');
      for (let i = 0; i < 100 && !gone(h.pid); i++) await sleep(20);
      await Promise.race([loop, sleep(5000)]);
      await h.cleanup();
      void loopError;
      const scan = await scanTree(dir);
      for (const t of scan.temps) tempsSeen.add(`${m.name}/${t}`);
      report.tempsAfterKill = tempsSeen.size;
      for (const [rel, hash] of scan.files) {
        const set = al.get(rel);
        if (process.env.STRESS_DEBUG && set && !set.has(hash)) {
        const st = await fsp.stat(path.join(dir, rel));
        process.stderr.write(`torn: ${m.name} ${rel} ${st.size} bytes\n`);
      }
      if (!set) {
          report.unexpected++;
          if (report.unexpectedSamples.length < 5) report.unexpectedSamples.push(`${m.name}: ${rel}`);
        } else if (!set.has(hash)) {
          report.torn++;
          report.tornByMode[m.name] = (report.tornByMode[m.name] ?? 0) + 1;
          if (report.tornSamples.length < 5) report.tornSamples.push(`${m.name}: ${rel}`);
        }
      }
      report.trials++;
      report.byMode[m.name] = (report.byMode[m.name] ?? 0) + 1;
    };
    for (let i = 0; i < trials; i++) {
      const m = modes[i % modes.length]!;
      // Random moments: mostly within the first operations, sometimes well into the loop.
      const delay = Math.random() < 0.8 ? Math.random() * 150 : 150 + Math.random() * 600;
      await runTrial(m, delay);
      onTrial?.(i);
    }
    // hashline started once more on each tree: temp files still there survived a restart.
    for (const m of modes) {
      const s = await connect(dirOf(m));
      await s.client.listTools();
      for (const t of (await scanTree(dirOf(m))).temps) {
        strays.add(`${m.name}/${t}`);
        if (report.strayAfterRestartSamples.length < 5) report.strayAfterRestartSamples.push(`${m.name}: ${t}`);
      }
      await s.close();
    }
    report.straysAfterRestart = strays.size;
    const dead = await deadLocksUnder(base);
    report.deadLocksAfterRestart = dead.length;
    report.deadLockSamples = dead.slice(0, 5);
    report.spoolDirsLeft = [...(await spoolDirs())].filter((n) => !spoolsBefore.has(n)).length;
    report.opsCompleted = opsCompleted;
    return report;
  } finally {
    await fsp.rm(base, { recursive: true, force: true });
  }
}
