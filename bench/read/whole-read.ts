// A whole read of a 2,000-line file over MCP stdio, p50 of many calls: hashline's fs_read against
// the reference filesystem server's read_text_file, both driven by the same SDK client on the
// same file. Run: node --import tsx bench/read/whole-read.ts [calls]

import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_SOURCE, REPO } from '../../test/helpers/mcp-client.js';

const CALLS = Number(process.argv[2] ?? 300);

async function session(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(new StdioClientTransport({ command, args, cwd: REPO, stderr: 'ignore' }));
  return client;
}

async function p50(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await client.callTool({ name, arguments: args });
  const xs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now();
    await client.callTool({ name, arguments: args });
    xs.push(performance.now() - t);
  }
  xs.sort((a, b) => a - b);
  return xs[Math.floor(xs.length / 2)]!;
}

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-bench-read-')));
try {
  const file = path.join(root, 'f.ts');
  writeFileSync(file, Array.from({ length: 2000 }, (_, i) => `export const value${i} = compute(${i}, 'some text', { flag: true }); // ${i}`).join('\n') + '\n');
  const hashline = await session(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'mcp', '--root', root, '--tools', 'fs_read']);
  const reference = await session(process.execPath, [path.join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root]);
  const h = await p50(hashline, 'fs_read', { targets: [{ path: 'f.ts' }] });
  const r = await p50(reference, 'read_text_file', { path: file });
  console.log(JSON.stringify({ lines: 2000, calls: CALLS, p50ms: { hashlineFsRead: +h.toFixed(2), referenceReadTextFile: +r.toFixed(2) }, ratio: +(h / r).toFixed(3), target: '<= 0.25' }));
  await hashline.close();
  await reference.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
