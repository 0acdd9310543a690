// In-process whole reads of the bench's 2,000-line file, for finding hot spots: the engine's fs_read
// (the MCP adapter's runTool and the stdio writer's encoding included) called N times, with the
// durable history the server opens by default. Prints the p50 per call. `cold`: the file is
// rewritten (untimed) before each call with a text not seen before (every line new, same size, as the
// bench's row), so no read finds its lines kept and the history records each one. `served`: as the MCP
// server runs it, the read's history commits after the reply is made (`commitReadsAfterReply`), in
// an untimed turn of the event loop after each call.
// Run: node --import tsx [--cpu-prof --cpu-prof-dir=/tmp/prof] bench/read/whole-profile.mts [calls] [history] [cold|warm] [served]

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../src/api/create-engine.js';
import { runTool } from '../../src/mcp/server.js';
import { encodeSharingStrings } from '../../src/mcp/shared-stringify.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { linesText } from '../lib/fixtures.js';

const CALLS = Number(process.argv[2] ?? 400);
const history = process.argv[3] ?? 'sqlite';
const cold = process.argv[4] === 'cold';
const served = process.argv[5] === 'served';
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-whole-profile-')));
const state = mkdtempSync(path.join(os.tmpdir(), 'hashline-whole-profile-state-'));
try {
  const text = (i: number) => linesText(2000, String(i % 1000).padStart(3, '0'));
  writeFileSync(path.join(root, 'read2000.ts'), text(0));
  const engine = await createEngine({ root, history, stateDir: state, config: false });
  const call = { signal: new AbortController().signal, progress: () => {} };
  const args = { targets: [{ path: 'read2000.ts' }] };
  let turn = 0;
  const once = async () => {
    if (cold) writeFileSync(path.join(root, 'read2000.ts'), text(++turn));
    const t = performance.now();
    const r = await runTool(engine, fsReadTool, args, call, { commitReadsAfterReply: served });
    const chunks = encodeSharingStrings({ jsonrpc: '2.0', id: 1, result: r });
    const ms = performance.now() - t;
    if (served) await new Promise((done) => setImmediate(done));
    return { chunks, ms };
  };
  for (let i = 0; i < 20; i++) await once();
  const xs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < CALLS; i++) {
    const { chunks, ms } = await once();
    xs.push(ms);
    bytes = chunks.reduce((s, c) => s + c.length, 0);
  }
  xs.sort((a, b) => a - b);
  console.log(JSON.stringify({ calls: CALLS, history, cold, served, p50ms: +xs[xs.length >> 1]!.toFixed(3), p10ms: +xs[Math.floor(xs.length / 10)]!.toFixed(3), replyBytes: bytes }));
  await engine.history.close();
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}
