// Quick side-by-side of the structural rewrite engine: `runAstEdit` in process (atomic, durable
// writes) against `ast-grep run -p PAT -r OUT -U` on a copy of the same 2,000-file TypeScript tree,
// alternating runs, then a byte comparison of the two trees.
// Run: npx tsx bench/ast/rewrite.ts [files=2000] [reps=5]

import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeConfig } from '../../src/core/config/config.js';
import { createEngine } from '../../src/tools/engine.js';
import { runAstEdit } from '../../src/tools/hashline/fs-ast-edit.js';
import { REWRITE, sourceTree } from '../lib/fixtures.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const n = Number(process.argv[2] ?? 2000);
const reps = Number(process.argv[3] ?? 5);
const work = path.join(repo, 'bench/work/ast-quick');
const astGrep = path.join(repo, 'node_modules/.bin/ast-grep');

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fsp.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && !e.name.startsWith('.complete')) out.push(path.relative(dir, path.join(e.parentPath, e.name)));
  }
  return out.sort();
}

async function fresh(template: string, dest: string): Promise<void> {
  await fsp.rm(dest, { recursive: true, force: true });
  execFileSync('cp', ['-r', template, dest]);
  execFileSync('sync');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  await fsp.mkdir(work, { recursive: true });
  const template = sourceTree(work, n);
  const h = path.join(work, 'h');
  const a = path.join(work, 'a');
  const engine = await createEngine(mergeConfig({ root: work, allow: [], block: [], readAllow: [], readBlock: [] }));
  const ours: number[] = [];
  const theirs: number[] = [];
  let changed = 0;
  for (let i = 0; i < reps; i++) {
    await fresh(template, h);
    let t = performance.now();
    const { output } = await runAstEdit(engine, { ops: [REWRITE], paths: ['h'], max_files: n + 100 }, new AbortController().signal);
    ours.push(performance.now() - t);
    changed = output.results.length;
    await fresh(template, a);
    t = performance.now();
    execFileSync(astGrep, ['run', '-p', REWRITE.pat, '-r', REWRITE.out, '-l', 'ts', '-U', 'a'], { cwd: work, maxBuffer: 64 << 20 });
    theirs.push(performance.now() - t);
  }
  const fh = await files(h);
  const fa = await files(a);
  let differing = fh.length === fa.length ? 0 : Math.abs(fh.length - fa.length);
  for (const f of fh) {
    const [x, y] = await Promise.all([fsp.readFile(path.join(h, f)), fsp.readFile(path.join(a, f)).catch(() => Buffer.alloc(0))]);
    if (!x.equals(y)) differing++;
  }
  const mo = median(ours);
  const mt = median(theirs);
  console.log(`files ${n}, changed ${changed}, reps ${reps}`);
  console.log(`hashline runAstEdit: median ${mo.toFixed(0)} ms  [${ours.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`ast-grep run -U:     median ${mt.toFixed(0)} ms  [${theirs.map((x) => x.toFixed(0)).join(', ')}]`);
  console.log(`ratio ${(mo / mt).toFixed(2)}x (goal <= 1.5x); files with differing bytes: ${differing}`);
}

await main();
