// The boundary family beside ast-mcp 0.3.0, the system seed 004 describes, over MCP stdio with the
// same arguments (the official SDK client on both sides): file_hash, file_write (create, replace),
// file_patch (one exact aider block on a .txt and on a .ts file), file_read of a window and
// file_rename. Each pair runs A B A B with hashline in `--durability atomic` (the default) and, in
// the same rounds, hashline in `--durability fsync`; the floor of each row, run after each round,
// is a bare SDK server replaying hashline's recorded reply plus the disk work the call cannot skip
// (an atomic replace of the bytes: temp file + rename; or reading and hashing them). CPU per call is
// each server's /proc CPU time over the whole loop, divided by its calls.
// ast-mcp is found under $ASTMCP_BASE (default /tmp/astmcp), where ../shared/tools/astmcp-install.sh
// puts it; without it the rows say "anchor missing". Its `ast-bro` is replaced by the install's
// "empty" stand-in, so .ts files are text to it (no parse check), as on any machine without ast-bro.

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { processCpuMs } from '../lib/cpu.js';
import { linesText, textLine } from '../lib/fixtures.js';
import { startReplay, type Replay } from '../lib/floors.js';
import { connectHashline, connectStdio, envelopeData, type McpSide } from '../lib/mcp.js';
import { median } from '../lib/stats.js';
import { failed, finish, type Row, type Workload } from '../lib/types.js';

export const ASTMCP_TOML = `version = 2

[workspace]
roots = ["."]

[formatting]
enabled = false
fallback = "preserve"

[safety]
require_hash = true

[[paths]]
id = "workspace"
path = "."
policies = { read = "allow", write = "allow", delete = "allow" }
follow_symlinks = false
includes = ["**/*"]
excludes = [".git/**"]
`;

export function astmcpBase(): string | null {
  const base = process.env.ASTMCP_BASE ?? '/tmp/astmcp';
  return existsSync(path.join(base, 'ast-mcp/dist/ast-mcp.js')) && existsSync(path.join(base, 'bun/node_modules/.bin/bun')) ? base : null;
}

export function connectAstmcp(base: string, root: string): Promise<McpSide> {
  writeFileSync(path.join(root, 'ast-mcp.toml'), ASTMCP_TOML);
  const env = { XDG_CONFIG_HOME: path.join(base, 'xdg-config'), TMPDIR: path.join(base, 'tmp'), AST_BRO_BINARY: path.join(base, 'shim/empty/ast-bro') };
  return connectStdio(path.join(base, 'bun/node_modules/.bin/bun'), [path.join(base, 'ast-mcp/dist/ast-mcp.js'), 'mcp'], root, 'hashline-bench', env);
}


const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const ms = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/** Temp file + rename of `bytes` over `file`: what an atomic write cannot do with less. */
function atomicReplaceMs(file: string, bytes: Uint8Array): number {
  const t = performance.now();
  const tmp = `${file}.floor-tmp`;
  const fd = openSync(tmp, 'w', 0o644);
  writeSync(fd, bytes);
  closeSync(fd);
  renameSync(tmp, file);
  return performance.now() - t;
}

/** One side's root and the state a call sequence keeps (hashes, the previous line). */
interface Side {
  name: 'atomic' | 'fsync' | 'astmcp';
  mcp: McpSide;
  root: string;
  state: Record<string, string>;
}

interface Case {
  id: string;
  title: string;
  /** Files each side's root starts with. */
  files: Record<string, string | Buffer>;
  /** One call of the operation on a side (i: the round). */
  call(s: Side, i: number): Promise<CallToolResult>;
  /** The platform's part of the same work, in the bench process (ms), beside the replayed reply. */
  disk(root: string, i: number): number;
  floorName: string;
}

const LINES = 2000;
const LINE = 1000;
const MIB = Buffer.alloc(1024 * 1024, 'x');

let napiModule: { parse(lang: string, text: string): { root(): unknown } } | undefined;
const napi = () => (napiModule ??= createRequire(import.meta.url)('@ast-grep/napi') as { parse(lang: string, text: string): { root(): unknown } });

function patchCase(ext: 'txt' | 'ts'): Case {
  const file = `p.${ext}`;
  return {
    id: `astmcp-patch-${ext}`,
    title: `file_patch: one exact aider block on a 2,000-line .${ext}${ext === 'ts' ? ' (hashline also checks the parse)' : ''}`,
    files: { [file]: linesText(LINES) },
    async call(s, i) {
      const prev = s.state.prev ?? textLine(LINE);
      s.state.sha ??= sha(readFileSync(path.join(s.root, file)));
      const next = textLine(LINE, `${s.name}${i} `);
      const r = await s.mcp.call('file_patch', { files: { [file]: { patchStrategy: 'aider_block', expectedSha256: s.state.sha, aiderBlocks: [{ search: `${prev}\n`, replace: `${next}\n` }] } } });
      // hashline lists the files; ast-mcp keys them by path
      const files = envelopeData<{ files: Array<{ sha256: string }> | Record<string, { sha256: string }> }>(r).files;
      s.state.sha = (Array.isArray(files) ? files[0] : Object.values(files)[0])!.sha256;
      s.state.prev = next;
      return r;
    },
    disk: (root) => {
      const bytes = readFileSync(path.join(root, file));
      const t = performance.now();
      if (ext === 'ts') napi().parse('TypeScript', bytes.toString('utf8')).root();
      return performance.now() - t + atomicReplaceMs(path.join(root, file), bytes);
    },
    floorName: `the replayed reply + ${ext === 'ts' ? 'one napi parse of the text + ' : ''}one atomic replace of the file`,
  };
}

const CASES: Case[] = [
  {
    id: 'astmcp-hash-20mib',
    title: 'file_hash of 20 files of 1 MiB',
    files: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`h${i}.bin`, MIB])),
    call: (s) => s.mcp.call('file_hash', { filePaths: Array.from({ length: 20 }, (_, i) => `h${i}.bin`) }),
    disk: (root) => {
      const t = performance.now();
      for (let i = 0; i < 20; i++) sha(readFileSync(path.join(root, `h${i}.bin`)));
      return performance.now() - t;
    },
    floorName: 'the replayed reply + reading and hashing the 20 files',
  },
  {
    id: 'astmcp-hash-50-small',
    title: 'file_hash of 50 files of 1 KiB (the per-file cost)',
    files: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`s${i}.txt`, linesText(40).slice(0, 1024)])),
    call: (s) => s.mcp.call('file_hash', { filePaths: Array.from({ length: 50 }, (_, i) => `s${i}.txt`) }),
    disk: (root) => {
      const t = performance.now();
      for (let i = 0; i < 50; i++) sha(readFileSync(path.join(root, `s${i}.txt`)));
      return performance.now() - t;
    },
    floorName: 'the replayed reply + reading and hashing the 50 files',
  },
  {
    id: 'astmcp-write-create',
    title: 'file_write: create one 2,000-line .txt',
    files: {},
    call: (s, i) => s.mcp.call('file_write', { files: { [`new-${s.name}-${i}.txt`]: { content: linesText(LINES, `${i}`) } } }),
    disk: (root, i) => atomicReplaceMs(path.join(root, `floor-${i}.txt`), Buffer.from(linesText(LINES, `${i}`))),
    floorName: 'the replayed reply + one atomic write of the bytes',
  },
  {
    id: 'astmcp-write-replace',
    title: 'file_write: replace one 2,000-line .txt (with its hash)',
    files: { 'w.txt': linesText(LINES) },
    async call(s, i) {
      s.state.sha ??= sha(readFileSync(path.join(s.root, 'w.txt')));
      const content = linesText(LINES, `${s.name}${i}`);
      const r = await s.mcp.call('file_write', { files: { 'w.txt': { content, expectedSha256: s.state.sha } } });
      envelopeData(r);
      s.state.sha = sha(content);
      return r;
    },
    disk: (root, i) => atomicReplaceMs(path.join(root, 'w.txt'), Buffer.from(linesText(LINES, `f${i}`))),
    floorName: 'the replayed reply + one atomic replace of the bytes',
  },
  patchCase('txt'),
  patchCase('ts'),
  {
    id: 'astmcp-read-window',
    title: 'file_read: lines [1000, 1050) of a 2,000-line .txt',
    files: { 'r.txt': linesText(LINES) },
    call: (s) => s.mcp.call('file_read', { files: [{ filePath: 'r.txt', lines: [1000, 1050] }] }),
    disk: (root) => {
      const t = performance.now();
      readFileSync(path.join(root, 'r.txt'));
      return performance.now() - t;
    },
    floorName: 'the replayed reply + reading the file',
  },
  {
    id: 'astmcp-rename',
    title: 'file_rename: one file, back and forth (with its hash)',
    files: { 'a.txt': linesText(200) },
    async call(s, i) {
      s.state.sha ??= sha(readFileSync(path.join(s.root, 'a.txt')));
      const from = s.state.at ?? 'a.txt';
      const to = from === 'a.txt' ? 'b.txt' : 'a.txt';
      const r = await s.mcp.call('file_rename', { files: { [from]: { destination: to, expectedSha256: s.state.sha } } });
      envelopeData(r);
      s.state.at = to;
      return r;
    },
    disk: (root, i) => {
      const t = performance.now();
      const [from, to] = Math.abs(i) % 2 === 0 ? ['fa.txt', 'fb.txt'] : ['fb.txt', 'fa.txt'];
      if (!existsSync(path.join(root, from))) writeFileSync(path.join(root, from), 'x');
      renameSync(path.join(root, from), path.join(root, to));
      return performance.now() - t;
    },
    floorName: 'the replayed reply + one rename',
  },
];

async function runCase(ctx: Parameters<Workload['run']>[0], base: string, c: Case): Promise<Row> {
  const row: Omit<Row, 'status'> = {
    id: c.id,
    title: `${c.title}, p50`,
    issue: 34,
    unit: 'ms',
    direction: 'lower',
    anchorName: 'ast-mcp 0.3.0',
    goal: { kind: 'ratio', bound: 'max', value: 1.0, text: '≤ 1.0×' },
  };
  const work = path.join(ctx.opts.work, 'astmcp', c.id);
  rmSync(work, { recursive: true, force: true });
  const rootOf = (n: string) => {
    const r = path.join(work, n);
    mkdirSync(r, { recursive: true });
    for (const [f, body] of Object.entries(c.files)) writeFileSync(path.join(r, f), body);
    return r;
  };
  const sides: Side[] = [];
  let replay: Replay | undefined;
  try {
    for (const name of ['atomic', 'fsync', 'astmcp'] as const) {
      const root = rootOf(name);
      const mcp = name === 'astmcp' ? await connectAstmcp(base, root) : await connectHashline(ctx.opts.repo, root, ['--durability', name]);
      sides.push({ name, mcp, root, state: {} });
    }
    const [atomic, fsync, astmcp] = sides as [Side, Side, Side];
    const floorRoot = rootOf('floor');
    // warm-up round (not timed); its hashline reply is what the floor replays
    const first = await c.call(atomic, -1);
    await c.call(fsync, -1);
    await c.call(astmcp, -1);
    replay = await startReplay(ctx.opts.repo, ctx.opts.work, c.id, [first]);
    const reps = ctx.opts.reps * 2;
    const t = { atomic: [] as number[], fsync: [] as number[], astmcp: [] as number[], floor: [] as number[] };
    const cpu0 = sides.map((s) => processCpuMs(s.mcp.pid()));
    for (let i = 0; i < reps; i++) {
      t.atomic.push(await ms(() => c.call(atomic, i)));
      t.astmcp.push(await ms(() => c.call(astmcp, i)));
      t.fsync.push(await ms(() => c.call(fsync, i)));
      t.floor.push((await replay.callMs()) + c.disk(floorRoot, i));
    }
    const cpu = sides.map((s, k) => (processCpuMs(s.mcp.pid()) - cpu0[k]!) / reps);
    const [cpuA, cpuF, cpuX] = cpu as [number, number, number];
    const note = `fsync mode ${median(t.fsync).toFixed(2)} ms (${(median(t.fsync) / median(t.astmcp)).toFixed(2)}x); server CPU per call: hashline ${cpuA.toFixed(2)} ms (fsync ${cpuF.toFixed(2)}), ast-mcp ${cpuX.toFixed(2)} ms (${(cpuA / cpuX).toFixed(2)}x)`;
    return finish({
      ...row,
      status: 'measured',
      hashline: median(t.atomic),
      anchor: median(t.astmcp),
      samples: { hashline: t.atomic, anchor: t.astmcp },
      floor: { name: c.floorName, value: median(t.floor), samples: t.floor },
      note,
      extra: { fsyncMs: median(t.fsync), cpuMsPerCall: { hashline: cpuA, hashlineFsync: cpuF, astmcp: cpuX }, cpuRatio: cpuA / cpuX },
    });
  } catch (e) {
    return failed(row, e);
  } finally {
    await replay?.close();
    for (const s of sides) await s.mcp.close().catch(() => undefined);
  }
}

export const astmcp: Workload = {
  id: 'astmcp',
  async run(ctx) {
    const base = astmcpBase();
    if (!base) {
      ctx.log('ast-mcp not installed (see docs/BENCHMARKS.md, "ast-mcp"): its rows are skipped');
      return CASES.map((c) => ({ id: c.id, title: c.title, issue: 34, status: 'anchor missing' as const, unit: 'ms', direction: 'lower' as const, anchorName: 'ast-mcp 0.3.0', goal: { kind: 'ratio' as const, bound: 'max' as const, value: 1.0, text: '≤ 1.0×' }, note: 'ast-mcp not installed: ASTMCP_BASE' }));
    }
    const rows: Row[] = [];
    for (const c of CASES) rows.push(await runCase(ctx, base, c));
    return rows;
  },
};
