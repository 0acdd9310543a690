// One in-process rewrite of the 2,000-file tree, for finding hot spots. Run bench/ast/rewrite.ts first
// (it generates the tree), then: node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/ast/profile.mts
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { mergeConfig } from '../../src/core/config/config.js';
import { createEngine } from '../../src/tools/engine.js';
import { runAstEdit } from '../../src/tools/hashline/fs-ast-edit.js';
const work = path.resolve('bench/work/ast-quick');
execFileSync('rm', ['-rf', path.join(work, 'h')]); execFileSync('cp', ['-r', path.join(work, 'tree-2000'), path.join(work, 'h')]); execFileSync('sync');
const engine = await createEngine(mergeConfig({ root: work, allow: [], block: [], readAllow: [], readBlock: [] }));
const t = performance.now();
await runAstEdit(engine, { ops: [{ pat: 'console.log($A)', out: 'logger.info($A)' }], paths: ['h'], max_files: 5000 }, new AbortController().signal);
console.log('total', (performance.now() - t).toFixed(0));
