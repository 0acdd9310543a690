// Where the time of one fs_edit goes over MCP stdio: the built server (dist/cli/main.js mcp),
// driven by the official SDK client, makes N 3-hunk edits of a 2,000-line file (durable, history
// on, as `npm run bench` does), p50 printed; with --cpu-prof DIR the server runs under
// `node --cpu-prof` and writes its profile there (read it with bench/lib/profile-top.mjs). Also
// prints the server's CPU time per call (all threads, from /proc), steadier than wall time on a busy machine.
// Run: npx tsx bench/edit/edit-profile.ts [calls] [--cpu-prof DIR] [--history memory] [--warm N] [--interval US]
//   (--warm: untimed calls first, 20 by default; the bench row makes 1, so --warm 1 shows a fresh server)

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { linesText, textLine } from '../lib/fixtures.js';
import { connectStdio, hashlineCli } from '../lib/mcp.js';
import { processCpuMs } from '../lib/cpu.js';
import { median, timeMs } from '../lib/stats.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'cpu-prof': { type: 'string' }, history: { type: 'string' }, warm: { type: 'string' }, interval: { type: 'string' } } });
const WARM = Number(values.warm ?? 20);
const CALLS = Number(positionals[0] ?? 300);
const REPO = path.resolve(import.meta.dirname, '../..');
const HUNKS = [10, 1000, 1990];

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-edit-profile-')));
const state = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-edit-state-')));
process.env.XDG_STATE_HOME = state;
try {
  writeFileSync(path.join(root, 'h.ts'), linesText(2000));
  const interval = values.interval ? ['--cpu-prof-interval', values.interval] : [];
  const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof']), ...interval] : [];
  const extra = values.history ? ['--history', values.history] : [];
  const side = await connectStdio(process.execPath, [...prof, hashlineCli(REPO), 'mcp', '--root', root, ...extra], root);
  const first = await side.call('fs_read', { targets: [{ path: 'h.ts', line_range: '1-1' }] });
  let tag = (first.structuredContent as { results: { file_hash: string }[] }).results[0]!.file_hash;
  const times: number[] = [];
  let cpu0 = 0;
  for (let i = 0; i < CALLS + WARM; i++) {
    if (i === WARM) cpu0 = processCpuMs(side.pid());
    const ops = HUNKS.map((n) => `replace ${n}:\n+${textLine(n, `p${i} `)}`).join('\n');
    const ms = await timeMs(async () => {
      const r = await side.call('fs_edit', { targets: [{ path: 'h.ts', file_hash: tag, ops }] });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      tag = (r.structuredContent as { results: { file_hash: string }[] }).results[0]!.file_hash;
    });
    if (i >= WARM) times.push(ms);
  }
  const cpu = (processCpuMs(side.pid()) - cpu0) / CALLS;
  await side.close();
  console.log(JSON.stringify({ calls: CALLS, warm: WARM, p50ms: +median(times).toFixed(3), serverCpuMsPerCall: +cpu.toFixed(3), history: values.history ?? 'sqlite' }));
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}
