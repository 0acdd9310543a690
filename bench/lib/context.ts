// What every workload receives: options, the anchors found, and which hashline parts have landed
// (the tools the built server lists, and whether the CLI knows `serve`).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { findAnchors } from './anchors.js';
import { serveBuilt } from './daemon.js';
import { connectHashline, hashlineCli, shippedBin } from './mcp.js';
import type { BenchContext, BenchOptions } from './types.js';

export type { BenchContext } from './types.js';


export function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** Builds the CLI (`npm run build`); a failed build is reported and the last dist/ is used. */
export function build(repo: string): void {
  log('npm run build');
  const r = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) log(`build failed (exit ${r.status}); using the existing dist/\n${`${r.stdout}${r.stderr}`.slice(0, 1500)}`);
  if (!existsSync(hashlineCli(repo))) throw new Error('dist/cli/main.js is missing: the build produced no CLI');
  if (!existsSync(shippedBin(repo))) throw new Error('the shipped bin is missing: the build produced no bundle');
}

export async function listedTools(repo: string, root: string): Promise<Set<string>> {
  const side = await connectHashline(repo, root);
  try {
    const { tools } = await side.client.listTools();
    return new Set(tools.map((t) => t.name));
  } finally {
    await side.close();
  }
}

export async function createContext(opts: BenchOptions): Promise<BenchContext> {
  mkdirSync(opts.work, { recursive: true });
  const anchors = findAnchors(opts.repo, log);
  const empty = path.join(opts.work, 'empty');
  mkdirSync(empty, { recursive: true });
  const tools = await listedTools(opts.repo, empty);
  const serve = serveBuilt(opts.repo);
  log(`hashline tools: ${[...tools].sort().join(', ') || '(none)'}; serve: ${serve ? 'built' : 'not built'}`);
  log(`anchors: ${Object.entries(anchors).map(([k, v]) => `${k}=${v ? 'ok' : 'missing'}`).join(' ')}`);
  return { opts, anchors, tools, serve, log };
}
