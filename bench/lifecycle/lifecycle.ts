// What the lifecycle tools cost: the reference scan of file_delete over a 10,000-file TypeScript
// tree (first scan in a fresh process, with the file cache cold, then warm), how many files it
// parsed, and a 50-file file_rename batch (there and back) on the same disk. In-process, on the
// engine the tools use; medians of several runs. The unit tests count work instead of timing it.
// Run: npm run bench:lifecycle

import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeConfig } from '../../src/core/config/config.js';
import { commitBatch, type FileChange } from '../../src/io/batch/batch-commit.js';
import { scanReferences } from '../../src/lang/references/reference-scan.js';
import { createEngine } from '../../src/tools/engine.js';

const DIRS = 100;
const PER_DIR = 100;
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const base = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-bench-lifecycle-'));
const root = path.join(base, 'root');
try {
  // m{d}/f{i}.ts imports its predecessor in the same directory; m0/f0.ts is imported by every directory's f0
  for (let d = 0; d < DIRS; d++) {
    await fsp.mkdir(path.join(root, `m${d}`), { recursive: true });
    for (let i = 0; i < PER_DIR; i++) {
      const imports = [i > 0 ? `import { v${i - 1} } from './f${i - 1}';` : d > 0 ? "import { v0 } from '../m0/f0';" : ''];
      await fsp.writeFile(path.join(root, `m${d}`, `f${i}.ts`), `${imports.join('\n')}\nexport const v${i} = ${i};\nexport function fn${i}(x: number) {\n  return x + ${i};\n}\n`);
    }
  }
  const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] }));
  const target = path.join(root, 'm0', 'f0.ts');
  const deleting = new Set([target]);
  let t0 = performance.now();
  const first = await scanReferences(engine.guard, [target], { deleting });
  const cold = performance.now() - t0;
  const warm: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    t0 = performance.now();
    await scanReferences(engine.guard, [target], { deleting });
    warm.push(performance.now() - t0);
  }
  const rep = first.targets.get(target)!;
  console.log(`reference scan, ${DIRS * PER_DIR} files, target imported by ${rep.importers.length} files:`);
  console.log(`  first scan (cold cache) ${cold.toFixed(0)} ms; warm median of ${RUNS} ${median(warm).toFixed(1)} ms; files parsed ${first.parsed}`);

  // 50 renames there and back, as one batch each
  const names = Array.from({ length: 50 }, (_, i) => `m1/f${i}.ts`);
  const texts = new Map(await Promise.all(names.map(async (n) => [n, await fsp.readFile(path.join(root, n), 'utf8')] as const)));
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const there = r % 2 === 0;
    const changes: FileChange[] = [];
    for (const n of names) {
      const from = there ? n : n.replace('m1/', 'moved/');
      const to = there ? n.replace('m1/', 'moved/') : n;
      changes.push({ kind: 'rename', from: await engine.guard.resolve(from, 'write'), to: await engine.guard.resolve(to, 'write'), expectedSha256: sha(texts.get(n)!), createParents: true });
    }
    t0 = performance.now();
    await commitBatch(engine.guard, engine.locks, changes);
    times.push(performance.now() - t0);
  }
  console.log(`file_rename batch of 50 files (link, unlink, fsync of both directories per file): median of ${RUNS} ${median(times).toFixed(1)} ms`);
} finally {
  await fsp.rm(base, { recursive: true, force: true });
}
