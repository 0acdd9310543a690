// Where the time of one fs_ast_edit over the 2,000-file tree goes, over MCP stdio: the built server
// (dist/cli/main.js mcp, atomic writes, the default) rewrites a fresh copy of the tree at the same
// path per call, as bench/workloads/ast-rewrite.ts does,
// driven by the official SDK client; prints the p50 and the server's CPU ms per call (all threads,
// from /proc). With --cpu-prof DIR the server runs under `node --cpu-prof` (worker threads write
// profiles of their own there); read them with bench/lib/profile-top.mjs. --parts 6 rewrites the
// tree of 210-line files.
// Run: npx tsx bench/ast/server-profile.ts [calls=3] [--parts 1|6] [--cpu-prof DIR]

import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REWRITE, sourceTree } from '../lib/fixtures.js';
import { connectStdio, hashlineCli, okText } from '../lib/mcp.js';
import { processCpuMs } from '../lib/cpu.js';
import { median, timeMs } from '../lib/stats.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'cpu-prof': { type: 'string' }, parts: { type: 'string' } } });
const CALLS = Number(positionals[0] ?? 3);
const REPO = path.resolve(import.meta.dirname, '../..');
const N = 2000;

const template = sourceTree(path.join(REPO, 'bench/work'), N, Number(values.parts ?? 1));
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-ast-profile-')));
const state = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-ast-state-')));
process.env.XDG_STATE_HOME = state;
try {
  const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])] : [];
  const side = await connectStdio(process.execPath, [...prof, hashlineCli(REPO), 'mcp', '--root', root], root);
  const times: number[] = [];
  const cpu: number[] = [];
  // one untimed call first (workers started, code warm, the page cache holding the tree)
  for (let i = 0; i <= CALLS; i++) {
    const dir = 'h';
    execFileSync('rm', ['-rf', path.join(root, dir)]);
    execFileSync('cp', ['-r', template, path.join(root, dir)]);
    const c0 = processCpuMs(side.pid());
    const ms = await timeMs(async () => okText(await side.call('fs_ast_edit', { ops: [REWRITE], paths: [dir], max_files: N + 100 })));
    if (i === 0) continue;
    times.push(ms);
    cpu.push(processCpuMs(side.pid()) - c0);
  }
  await side.close();
  console.log(JSON.stringify({ calls: CALLS, parts: Number(values.parts ?? 1), p50ms: Math.round(median(times)), serverCpuMs: Math.round(median(cpu)), times: times.map(Math.round), cpu: cpu.map(Math.round) }));
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}
