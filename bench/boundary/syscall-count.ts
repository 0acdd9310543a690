// System calls per call of one boundary call kind, hashline against ast-mcp: each server runs under
// `strace -f -c` twice (the same warm-up, then N calls or none), and the counts of the second run
// less the first's, divided by N, are printed per system call (the start-up cancels out).
// Run: npx tsx bench/boundary/syscall-count.ts patch-txt|create [calls]   (needs strace and ast-mcp, see astmcp.ts)

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linesText, textLine } from '../lib/fixtures.js';
import { connectStdio, envelopeData, shippedBin } from '../lib/mcp.js';
import { ASTMCP_TOML, astmcpBase } from '../workloads/astmcp.js';

const KIND = process.argv[2] ?? 'patch-txt';
const CALLS = Number(process.argv[3] ?? 100);
const REPO = path.resolve(import.meta.dirname, '../..');
const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');
const base = astmcpBase();
if (!base) throw new Error('ast-mcp not installed');

/** strace -c's table as name → calls. */
function counts(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
    if (m && m[2] !== 'total') out.set(m[2]!, Number(m[1]));
  }
  return out;
}

async function run(side: 'hashline' | 'astmcp', calls: number): Promise<Map<string, number>> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-syscalls-')));
  const out = path.join(root, '..', `${path.basename(root)}.strace`);
  try {
    writeFileSync(path.join(root, 'p.txt'), linesText(2000));
    const env: Record<string, string> = side === 'hashline' ? { XDG_STATE_HOME: path.join(root, '.state') } : { XDG_CONFIG_HOME: path.join(base!, 'xdg-config'), TMPDIR: path.join(base!, 'tmp'), AST_BRO_BINARY: path.join(base!, 'shim/empty/ast-bro') };
    const argv = side === 'hashline' ? [process.execPath, shippedBin(REPO), 'mcp', '--root', root] : [path.join(base!, 'bun/node_modules/.bin/bun'), path.join(base!, 'ast-mcp/dist/ast-mcp.js'), 'mcp'];
    if (side === 'astmcp') writeFileSync(path.join(root, 'ast-mcp.toml'), ASTMCP_TOML);
    const s = await connectStdio('strace', ['-f', '-c', '-o', out, ...argv], root, 'hashline-bench', env);
    let digest = sha(readFileSync(path.join(root, 'p.txt')));
    let prev = textLine(1000);
    for (let i = 0; i < 20 + calls; i++) {
      if (KIND === 'create') {
        envelopeData(await s.call('file_write', { files: { [`new-${i}.txt`]: { content: linesText(2000, `${i}`) } } }));
        continue;
      }
      const next = textLine(1000, `x${i} `);
      const r = await s.call('file_patch', { files: { 'p.txt': { patchStrategy: 'aider_block', expectedSha256: digest, aiderBlocks: [{ search: `${prev}\n`, replace: `${next}\n` }] } } });
      const files = envelopeData<{ files: Array<{ sha256: string }> | Record<string, { sha256: string }> }>(r).files;
      digest = (Array.isArray(files) ? files[0] : Object.values(files)[0])!.sha256;
      prev = next;
    }
    await s.close();
    await new Promise((r) => setTimeout(r, 300));
    return counts(out);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(out, { force: true });
  }
}

for (const side of ['hashline', 'astmcp'] as const) {
  const [none, some] = [await run(side, 0), await run(side, CALLS)];
  const per = [...some].map(([k, v]) => [k, (v - (none.get(k) ?? 0)) / CALLS] as const).filter(([, v]) => v >= 0.05).sort((a, b) => b[1] - a[1]);
  const total = per.reduce((a, [, v]) => a + v, 0);
  console.log(`${side} ${KIND}: ${total.toFixed(1)} system calls per call: ${per.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
}
