// How the stress parts start hashline: the built CLI (bin/hashline.mjs, the bundle the package
// ships, which starts fastest) when it is newer than every source file, else the TypeScript sources
// through tsx (STRESS_CLI=dist|source forces one). Also which parts
// have landed: the tools `hashline mcp` lists, and whether the CLI knows `serve`.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binFresh } from '../../test/helpers/cli.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_CLI = path.join(REPO, 'bin/hashline.mjs');
const SOURCE_CLI = path.join(REPO, 'src/cli/main.ts');


let cached: string[] | undefined;

/** argv (after `node`) that runs the hashline CLI. */
export function cliArgs(): string[] {
  if (cached) return cached;
  const force = process.env.STRESS_CLI;
  const distFresh = binFresh();
  const useDist = force === 'dist' || (force !== 'source' && distFresh);
  cached = useDist ? [DIST_CLI] : ['--import', 'tsx', SOURCE_CLI];
  return cached;
}

export function cliKind(): 'dist' | 'source' {
  return cliArgs()[0] === DIST_CLI ? 'dist' : 'source';
}

export interface Session {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  pid(): number | null;
  close(): Promise<void>;
  stderr(): string;
}

export async function connect(root: string, extra: string[] = [], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgs(), 'mcp', '--root', root, ...extra],
    // The repository, so `--import tsx` resolves; the root comes from --root.
    cwd: REPO,
    stderr: 'pipe',
    env: { ...process.env, ...env } as Record<string, string>,
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => {
    if (err.length < 32768) err += c.toString();
  });
  const client = new Client({ name: 'hashline-stress', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, a) => (await client.callTool({ name, arguments: a }, undefined, { timeout: 120_000 })) as CallToolResult,
    pid: () => transport.pid,
    close: () => client.close(),
    stderr: () => err,
  };
}

const toolCache = new Map<string, Set<string>>();

/** The tools the server lists (started once on `root`). */
export async function listedTools(root: string): Promise<Set<string>> {
  const key = cliArgs().join(' ');
  const hit = toolCache.get(key);
  if (hit) return hit;
  const s = await connect(root);
  try {
    const names = new Set((await s.client.listTools()).tools.map((t) => t.name));
    toolCache.set(key, names);
    return names;
  } finally {
    await s.close();
  }
}

export function serveBuilt(): boolean {
  const r = spawnSync(process.execPath, [...cliArgs(), 'serve', '--help'], { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 && !`${r.stderr}`.includes('unknown command');
}

/** Spawns a child running the CLI with `args` (stdout ignored, stderr kept). */
export function spawnCli(args: string[], env: Record<string, string> = {}, cwd = REPO): ChildProcess {
  return spawn(process.execPath, [...cliArgs(), ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The text of the first content block. */
export function textOf(r: CallToolResult): string {
  const b = r.content[0];
  return b && b.type === 'text' ? b.text : '';
}
