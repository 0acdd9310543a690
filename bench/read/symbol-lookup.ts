// Symbol lookup over a generated 10,000-file TypeScript tree: hashline's directory symbol search
// (first call in a fresh process, then repeated calls on the warm cache) side by side with the
// ast-grep CLI running an equivalent kind+name rule, and `rg -l` (or `grep -rl`) for the name.
// Prints the times and the ratios. Run: node --import tsx bench/read/symbol-lookup.ts [files]

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { engineFor } from '../../test/helpers/engine.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = Number(process.argv[2] ?? 10_000);
const NAME = 'lookupTargetSymbol';

function generate(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, `pkg${i % 100}`, `mod${Math.floor(i / 100) % 10}`);
    mkdirSync(dir, { recursive: true });
    const lines = [`import { helper${i} } from './dep${i}';`, ''];
    for (let f = 0; f < 8; f++) {
      lines.push(`export function fn${i}_${f}(a: number, b: string): string {`, `  const x = a * ${f} + ${i};`, '  if (x > 10) {', '    return b.repeat(2);', '  }', `  return helper${i}(b, x);`, '}', '');
    }
    if (i % 1000 === 7) lines.push(`export function ${NAME}(n: number): number {`, '  return n + 1;', '}', '');
    if (i % 500 === 3) lines.push(`// calls ${NAME} elsewhere`, `const use${i} = ${NAME}(1);`, '');
    writeFileSync(path.join(dir, `file${i}.ts`), lines.join('\n'));
  }
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-bench-sym-')));
try {
  const tree = path.join(base, 'tree');
  generate(tree);
  // ast-grep CLI, same rule: a function declaration whose name field is exactly NAME
  const rule = `id: find\nlanguage: TypeScript\nrule:\n  kind: function_declaration\n  has:\n    field: name\n    regex: ^${NAME}$\n`;
  const sg = path.join(REPO, 'node_modules/.bin/ast-grep');
  const sgRun = () => execFileSync(sg, ['scan', '--inline-rules', rule, '--json=compact', tree], { maxBuffer: 1 << 28 });
  sgRun(); // warm the page cache
  const sgMs = median([time(sgRun), time(sgRun), time(sgRun)]);
  const sgHits = (JSON.parse(sgRun().toString()) as unknown[]).length;
  const rg = spawnSync('rg', ['--version']).status === 0;
  const rgRun = () => (rg ? execFileSync('rg', ['-l', NAME, tree]) : execFileSync('grep', ['-rl', NAME, tree]));
  const rgMs = median([time(rgRun), time(rgRun), time(rgRun), time(rgRun), time(rgRun)]);

  // hashline: the first lookup runs in a fresh process (nothing warm), then repeats in this one
  const first = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'bench/read/symbol-lookup-once.ts'), tree, NAME], { encoding: 'utf8' });
  if (first.status !== 0) throw new Error(first.stderr);
  const { ms: firstMs, hits: firstHits } = JSON.parse(first.stdout) as { ms: number; hits: number };
  const engine = await engineFor(tree);
  const call = { signal: new AbortController().signal, progress: () => undefined };
  const run = () => fsReadTool.run(engine, { targets: [{ path: '.', symbol: NAME }] }, call);
  const inProcFirst = await timeAsync(run);
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push(await timeAsync(run));
  const hits = ((await run()).structured.results ?? []).filter((r) => r.file_hash !== '').length;

  const out = {
    files: FILES,
    hits: { hashline: hits, hashlineFirst: firstHits, astGrep: sgHits },
    ms: { hashlineFirstFreshProcess: +firstMs.toFixed(1), hashlineFirstInProcess: +inProcFirst.toFixed(1), hashlineWarmMedian: +median(warm).toFixed(1), astGrepScan: +sgMs.toFixed(1), [rg ? 'rgL' : 'grepRl']: +rgMs.toFixed(1) },
    ratios: { firstVsAstGrep: +(firstMs / sgMs).toFixed(3), warmVsRg: +(median(warm) / rgMs).toFixed(3) },
    targets: { firstVsAstGrep: '<= 0.15', warmVsRg: '<= 1' },
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  rmSync(base, { recursive: true, force: true });
}
