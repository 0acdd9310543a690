// One directory symbol lookup in a fresh process (nothing warm), timed from engine creation on.
// Used by bench/read/symbol-lookup.ts; prints { ms, hits }.
import { performance } from 'node:perf_hooks';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { engineFor } from '../../test/helpers/engine.js';

const [tree, name] = process.argv.slice(2) as [string, string];
const t = performance.now();
const engine = await engineFor(tree);
const out = await fsReadTool.run(engine, { targets: [{ path: '.', symbol: name }] }, { signal: new AbortController().signal, progress: () => undefined });
const ms = performance.now() - t;
process.stdout.write(JSON.stringify({ ms, hits: (out.structured.results ?? []).filter((r) => r.file_hash !== '').length }));
