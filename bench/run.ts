// `npm run bench [-- --quick] [-- --only ID,ID] [-- --no-build] [-- --doc]`: builds hashline, finds or
// installs the anchors, runs every workload side by side (A B A B ...), prints the table and
// writes bench/results/latest.json, latest.svg and latest.md (the table for docs/BENCHMARKS.md).
// BENCH_QUICK=1 is the same as --quick. --doc also puts the table into docs/BENCHMARKS.md.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { writeSvg } from './lib/chart.js';
import { build, createContext, log } from './lib/context.js';
import { machine, textTable, updateDoc, writeJson, writeMarkdown } from './lib/report.js';
import type { BenchOptions, Row, Workload } from './lib/types.js';
import { astRewrite } from './workloads/ast-rewrite.js';
import { astmcp } from './workloads/astmcp.js';
import { coldStart } from './workloads/cold-start.js';
import { contextTax } from './workloads/context-tax.js';
import { edit } from './workloads/edit.js';
import { fileReadWindow } from './workloads/file-read-window.js';
import { http } from './workloads/http.js';
import { patch } from './workloads/patch.js';
import { readWhole } from './workloads/read-whole.js';
import { search } from './workloads/search.js';
import { searchTokens } from './workloads/search-tokens.js';
import { sha256 } from './workloads/sha256.js';
import { symbolEdit } from './workloads/symbol-edit.js';
import { symbolLookup } from './workloads/symbol-lookup.js';

const WORKLOADS: Workload[] = [contextTax, coldStart, sha256, fileReadWindow, readWhole, symbolEdit, symbolLookup, search, searchTokens, edit, patch, astRewrite, http, astmcp];

const BENCH = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean' }, only: { type: 'string' }, 'no-build': { type: 'boolean' }, doc: { type: 'boolean' } },
    strict: true,
  });
  const quick = values.quick === true || process.env.BENCH_QUICK === '1';
  const opts: BenchOptions = {
    quick,
    reps: quick ? 3 : 15,
    heavyReps: quick ? 1 : 5,
    loadSeconds: quick ? 1 : 10,
    repo: path.resolve(BENCH, '..'),
    work: path.join(BENCH, 'work'),
  };
  // every server the bench starts keeps its durable history here, beside the floors' store (same disk)
  process.env.XDG_STATE_HOME = path.join(opts.work, 'state');
  if (!values['no-build']) build(opts.repo);
  const ctx = await createContext(opts);
  const only = values.only?.split(',').map((s) => s.trim());
  const rows: Row[] = [];
  for (const w of WORKLOADS) {
    if (only && !only.includes(w.id)) continue;
    const t0 = Date.now();
    log(`workload ${w.id} ...`);
    let got: Row[];
    try {
      got = await w.run(ctx);
    } catch (e) {
      got = [{ id: w.id, title: w.id, issue: 0, status: 'failed', unit: '', direction: 'lower', anchorName: '—', goal: { kind: 'absolute', bound: 'max', value: 0, text: '—' }, note: (e as Error)?.message?.split('\n')[0] ?? String(e) }];
    }
    rows.push(...got);
    log(`workload ${w.id}: ${got.map((r) => `${r.id} ${r.status}`).join(', ')} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const m = machine();
  const results = path.join(BENCH, 'results');
  const json = writeJson(results, rows, m, quick);
  const svg = writeSvg(results, rows, m);
  const md = writeMarkdown(results, rows, m, quick);
  if (values.doc) updateDoc(path.join(opts.repo, 'docs/BENCHMARKS.md'), md);
  process.stdout.write(`\nhashline bench${quick ? ' (quick)' : ''}: ${m.date}, ${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, node ${m.node}\n\n`);
  process.stdout.write(`${textTable(rows)}\n\nwrote ${path.relative(opts.repo, json)} and ${path.relative(opts.repo, svg)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${(e as Error)?.stack ?? e}\n`);
    process.exit(1);
  },
);
