// Where the time of one boundary call goes: the built server (dist/cli/main.js mcp, durability
// atomic, history on), driven by the official SDK client, makes N calls of one kind (file_write
// create/replace, file_patch aider block on .txt/.ts, file_hash, file_read window, file_rename);
// prints the p50 and the server's CPU ms per call (all threads, from /proc). With --cpu-prof DIR
// the server runs under `node --cpu-prof` (read the profile with bench/lib/profile-top.mjs).
// Run: npx tsx bench/boundary/boundary-profile.ts KIND [calls] [--cpu-prof DIR] [--warm N]
//   (--warm: untimed calls first, 20 by default; the bench rows make 1, so --warm 1 shows a fresh server)
//   KIND: create | replace | patch-txt | patch-ts | hash (50 x 1 KiB) | hash-big (20 x 1 MiB) | read | rename | fs-write, fs-read
//   (the hashline family's fs_write and whole fs_read of a 2,000-line file)

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { processCpuMs } from '../lib/cpu.js';
import { linesText, textLine } from '../lib/fixtures.js';
import { connectStdio, hashlineCli } from '../lib/mcp.js';
import { median, timeMs } from '../lib/stats.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'cpu-prof': { type: 'string' }, warm: { type: 'string' } } });
const KIND = positionals[0] ?? 'patch-txt';
const CALLS = Number(positionals[1] ?? 300);
const WARM = Number(values.warm ?? 20);
const REPO = path.resolve(import.meta.dirname, '../..');
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-boundary-profile-')));
const state = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-boundary-state-')));
process.env.XDG_STATE_HOME = state;
const at = (f: string) => path.join(root, f);
try {
  for (const f of ['w.txt', 'p.txt', 'p.ts', 'r.txt']) writeFileSync(at(f), linesText(2000));
  writeFileSync(at('a.txt'), linesText(200));
  if (KIND === 'hash-big') for (let i = 0; i < 20; i++) writeFileSync(at(`h${i}.bin`), Buffer.alloc(1024 * 1024, 'x'));
  for (let i = 0; i < 50; i++) writeFileSync(at(`s${i}.txt`), linesText(40).slice(0, 1024));
  const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])] : [];
  const side = await connectStdio(process.execPath, [...prof, hashlineCli(REPO), 'mcp', '--root', root], root);
  const st: Record<string, string> = {};
  const call = async (i: number): Promise<CallToolResult> => {
    switch (KIND) {
      case 'create':
        return side.call('file_write', { files: { [`new-${i}.txt`]: { content: linesText(2000, `${i}`) } } });
      case 'replace': {
        st.sha ??= sha(readFileSync(at('w.txt')));
        const content = linesText(2000, `r${i}`);
        const r = await side.call('file_write', { files: { 'w.txt': { content, expectedSha256: st.sha } } });
        st.sha = sha(content);
        return r;
      }
      case 'patch-txt':
      case 'patch-ts': {
        const file = KIND === 'patch-ts' ? 'p.ts' : 'p.txt';
        const prev = st.prev ?? textLine(1000);
        st.sha ??= sha(readFileSync(at(file)));
        const next = textLine(1000, `x${i} `);
        const r = await side.call('file_patch', { files: { [file]: { patchStrategy: 'aider_block', expectedSha256: st.sha, aiderBlocks: [{ search: `${prev}\n`, replace: `${next}\n` }] } } });
        st.sha = (r.structuredContent as { data: { files: Array<{ sha256: string }> } }).data.files[0]!.sha256;
        st.prev = next;
        return r;
      }
      case 'fs-read':
        return side.call('fs_read', { targets: [{ path: 'r.txt' }] });
      case 'fs-write':
        return side.call('fs_write', { targets: [{ path: 'fw.txt', text: linesText(2000, `${i}`) }] });
      case 'hash-big':
        return side.call('file_hash', { filePaths: Array.from({ length: 20 }, (_, k) => `h${k}.bin`) });
      case 'hash':
        return side.call('file_hash', { filePaths: Array.from({ length: 50 }, (_, k) => `s${k}.txt`) });
      case 'read':
        return side.call('file_read', { files: [{ filePath: 'r.txt', lines: [1000, 1050] }] });
      case 'rename': {
        st.sha ??= sha(readFileSync(at('a.txt')));
        const from = st.at ?? 'a.txt';
        const to = from === 'a.txt' ? 'b.txt' : 'a.txt';
        const r = await side.call('file_rename', { files: { [from]: { destination: to, expectedSha256: st.sha } } });
        st.at = to;
        return r;
      }
      default:
        throw new Error(`unknown kind ${KIND}`);
    }
  };
  const times: number[] = [];
  let cpu0 = 0;
  for (let i = 0; i < CALLS + WARM; i++) {
    if (i === WARM) cpu0 = processCpuMs(side.pid());
    const ms = await timeMs(async () => {
      const r = await call(i);
      if (r.isError || (r.structuredContent as { ok?: boolean } | undefined)?.ok === false) throw new Error(JSON.stringify(r.content).slice(0, 400));
    });
    if (i >= WARM) times.push(ms);
  }
  const cpu = (processCpuMs(side.pid()) - cpu0) / CALLS;
  await side.close();
  console.log(JSON.stringify({ kind: KIND, calls: CALLS, warm: WARM, p50ms: +median(times).toFixed(3), serverCpuMsPerCall: +cpu.toFixed(3) }));
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
}
