// CPU per thread of a structural rewrite over the 2,000-file tree, in process, from the built
// dist/ (run `npm run build` and `npx tsx bench/ast/rewrite.ts` first: the latter makes the tree).
// Each call rewrites a fresh copy made in a new temporary directory beforehand; the figures of the
// last (warm) call are the ones to read. Threads are told apart by id: the main thread, the two
// parse workers (most user time), libuv's pool (system time: creates, fsyncs, renames) and V8's
// helpers (compilation, GC).
// Run: node bench/ast/threads.mjs [calls=3]; TREE=DIR rewrites another tree (e.g. bench/work/tree-2000x6, the
// 210-line files `npm run bench -- --only ast-rewrite` makes).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (p) => pathToFileURL(path.join(repo, 'dist', p)).href;
const { mergeConfig } = await import(dist('core/config/config.js'));
const { createEngine } = await import(dist('tools/engine.js'));
const { runAstEdit } = await import(dist('tools/hashline/fs-ast-edit.js'));

const calls = Number(process.argv[2] ?? 3);
const tree = process.env.TREE ?? path.join(repo, 'bench/work/ast-quick/tree-2000');
const root = mkdtempSync(path.join(os.tmpdir(), 'hashline-threads-'));
for (let i = 0; i < calls; i++) execFileSync('cp', ['-r', tree, path.join(root, `t${i}`)]);
execFileSync('sync');
const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] }));

/** utime and stime (ms) of every thread of this process, by thread id. */
function threads() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(tid, { user: Number(f[11]) * 10, system: Number(f[12]) * 10 });
  }
  return out;
}

try {
  for (let i = 0; i < calls; i++) {
    const before = threads();
    const t = performance.now();
    await runAstEdit(engine, { ops: [{ pat: 'console.log($A)', out: 'logger.info($A)' }], paths: [`t${i}`], max_files: 5000 }, new AbortController().signal);
    const wall = performance.now() - t;
    const rows = [];
    let total = 0;
    for (const [tid, now] of threads()) {
      const was = before.get(tid) ?? { user: 0, system: 0 };
      const user = now.user - was.user;
      const system = now.system - was.system;
      if (user + system === 0) continue;
      total += user + system;
      rows.push(`${tid === String(process.pid) ? 'main' : tid} ${user}+${system}`);
    }
    console.log(`call ${i + 1}: wall ${wall.toFixed(0)} ms, CPU ${total} ms (user+system per thread: ${rows.join(', ')})`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exit(0);
