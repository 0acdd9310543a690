// `npm run bench:fidelity [-- --edits N] [-- --seed S] [-- --no-build] [-- --doc]`: builds hashline,
// picks N edits (default 1,000) in real source files found on this machine, replays each through
// every scenario with hashline (whole-file read, symbol read), the boundary tools (file_read, then
// file_patch with aider blocks; also the misquote scenarios) and the reference filesystem server,
// judges each result against the oracle, counts tokens on fresh files, prints the table and writes
// bench/results/fidelity.{md,svg,json}; --doc also puts the table into docs/BENCHMARKS.md.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from '../lib/context.js';
import { connectHashline } from '../lib/mcp.js';
import type { AgentKind } from './agents/agent.js';
import { boundaryKind } from './agents/boundary.js';
import { hashlineKind } from './agents/hashline.js';
import { referenceKind } from './agents/reference.js';
import { findSources, pickTargets } from './corpus.js';
import { definitionShares } from './definitions.js';
import { boundaryGoals, cascadeCounts } from './cascade-report.js';
import { chartSvg, countOutcomes, goals, markdown } from './report.js';
import { Rng } from './rng.js';
import { QUOTE_SCENARIOS } from './quote-scenarios.js';
import { prepareEdits, runAll } from './runner.js';
import { SCENARIOS } from './scenarios.js';
import { costSummaries, taskFloor, taskTokens, type TaskTokens } from './tokens.js';

const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.resolve(BENCH, '..');
const BEGIN = '<!-- fidelity:begin (written by `npm run bench:fidelity -- --doc`) -->';
const END = '<!-- fidelity:end -->';

/** True when this build's fs_edit takes `reply: "compact"`. */
async function hasCompactReply(root: string): Promise<boolean> {
  const side = await connectHashline(REPO, root);
  try {
    const { tools } = await side.client.listTools();
    const props = (tools.find((t) => t.name === 'fs_edit')?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    return 'reply' in props;
  } finally {
    await side.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { edits: { type: 'string' }, seed: { type: 'string' }, 'no-build': { type: 'boolean' }, doc: { type: 'boolean' }, scenarios: { type: 'string' } },
    strict: true,
  });
  const edits = Number(values.edits ?? 1000);
  const seed = Number(values.seed ?? 1);
  if (!Number.isInteger(edits) || edits < 1 || !Number.isInteger(seed)) throw new Error('--edits and --seed take integers');
  if (!values['no-build']) build(REPO);
  const t0 = Date.now();
  const sources = findSources(REPO);
  const targets = pickTargets(sources, { edits, rng: new Rng(seed) });
  const prepared = prepareEdits(targets, seed);
  console.error(`corpus: ${prepared.length} edits in ${new Set(targets.map((t) => t.file.source)).size} files (${[...sources].map(([l, f]) => `${l} ${f.length} files found`).join(', ')})`);
  const root = mkdtempSync(path.join(os.tmpdir(), 'hashline-fidelity-'));
  const state = mkdtempSync(path.join(os.tmpdir(), 'hashline-fidelity-state-'));
  process.env.XDG_STATE_HOME = state;
  try {
    const spawn = { command: process.execPath, args: [path.join(REPO, 'dist/cli/main.js')] };
    const kinds: AgentKind[] = [hashlineKind(spawn, 'whole'), hashlineKind(spawn, 'symbol'), boundaryKind(spawn), referenceKind(REPO)];
    if (await hasCompactReply(root)) kinds.push(hashlineKind(spawn, 'symbol', { compact: true }));
    const only = values.scenarios?.split(',');
    const scenarios = [...SCENARIOS, ...QUOTE_SCENARIOS].filter((s) => !only || only.includes(s.id));
    const results = await runAll(
      {
        root,
        seed,
        targets,
        kinds,
        scenarios,
        runs: (k, s) => !k.id.endsWith('-compact') || s.id === 'fresh',
        keepCalls: (_k, s) => s.id === 'fresh',
        log: (l) => console.error(l),
      },
      prepared,
    );
    const shares = await definitionShares(REPO, kinds);
    const byKind = new Map<string, TaskTokens[]>();
    for (const r of results) {
      if (r.judged.outcome !== 'exact') continue;
      const t = taskTokens(r, shares.get(r.kind) ?? 0);
      if (t) byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), t]);
    }
    const floors = new Map(prepared.map((p) => [p.index, taskFloor(p.target, p.edit)]));
    const costs = costSummaries(byKind, 'reference', { floors });
    const counts = countOutcomes(results);
    const cascade = cascadeCounts(results, kinds);
    const count = (f: (p: (typeof prepared)[number]) => string) => prepared.reduce<Record<string, number>>((m, p) => ({ ...m, [f(p)]: (m[f(p)] ?? 0) + 1 }), {});
    const input = {
      date: new Date().toISOString(),
      seed,
      edits: prepared.length,
      files: new Set(prepared.map((p) => p.target.file.source)).size,
      langs: count((p) => p.target.file.lang),
      editKinds: count((p) => p.edit.kind),
      kinds,
      scenarios,
      counts,
      costs,
      goals: goals(counts, kinds, costs),
      cascade,
      boundaryGoals: boundaryGoals(counts, kinds, scenarios, cascade),
      seconds: (Date.now() - t0) / 1000,
      command: `npm run bench:fidelity -- --edits ${edits} --seed ${seed}`,
    };
    const md = markdown(input);
    const dir = path.join(BENCH, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'fidelity.md'), md);
    writeFileSync(path.join(dir, 'fidelity.svg'), chartSvg(input));
    // up to 60 wrong applies or crashes per agent, so one agent's many do not hide another's few
    const wrong = kinds.flatMap((k) => results.filter((r) => r.kind === k.id && (r.judged.outcome === 'wrong' || r.judged.outcome === 'crash')).slice(0, 60));
    writeFileSync(
      path.join(dir, 'fidelity.json'),
      `${JSON.stringify({ ...input, kinds: kinds.map((k) => k.id), scenarios: scenarios.map((s) => s.id), counts: Object.fromEntries([...counts].map(([s, m]) => [s, Object.fromEntries(m)])), cascade: Object.fromEntries(cascade), samples: wrong.map((r) => ({ kind: r.kind, scenario: r.scenario, index: r.index, note: r.judged.note, reply: r.reply?.slice(0, 600) })) }, null, 1)}\n`,
    );
    if (values.doc) {
      const doc = path.join(REPO, 'docs/BENCHMARKS.md');
      const text = readFileSync(doc, 'utf8');
      const a = text.indexOf(BEGIN);
      const b = text.indexOf(END);
      if (a < 0 || b < a) throw new Error(`${doc} has no fidelity markers`);
      writeFileSync(doc, `${text.slice(0, a + BEGIN.length)}\n${md.trim()}\n${text.slice(b)}`);
    }
    process.stdout.write(md);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
