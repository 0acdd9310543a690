// `npx tsx bench/fidelity/debug-refusals.ts [--edits N] [--seed S] [--scenario ID] [--agent whole|symbol]`:
// a debugging aid. Replays one scenario through one hashline agent (on dist/, so build first) and
// prints, for each task that was not merged or exact, the edit sent, the change made between read
// and edit (for session-chain: the session's own prior edit), and the reply.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hashlineKind, toDsl } from './agents/hashline.js';
import { findSources, pickTargets } from './corpus.js';
import { Rng } from './rng.js';
import { prepareEdits, runAll } from './runner.js';
import { SCENARIOS } from './scenarios.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { edits: { type: 'string' }, seed: { type: 'string' }, scenario: { type: 'string' }, agent: { type: 'string' } }, strict: true });
  const edits = Number(values.edits ?? 150);
  const seed = Number(values.seed ?? 1);
  const scenario = SCENARIOS.find((s) => s.id === (values.scenario ?? 'session-chain'));
  if (!scenario) throw new Error(`no scenario ${values.scenario}`);
  const mode = values.agent === 'symbol' ? 'symbol' : 'whole';
  const targets = pickTargets(findSources(REPO), { edits, rng: new Rng(seed) });
  const prepared = prepareEdits(targets, seed);
  const root = mkdtempSync(path.join(os.tmpdir(), 'hashline-debug-'));
  const state = mkdtempSync(path.join(os.tmpdir(), 'hashline-debug-state-'));
  process.env.XDG_STATE_HOME = state;
  try {
    const spawn = { command: process.execPath, args: [path.join(REPO, 'dist/cli/main.js')] };
    const results = await runAll({ root, seed, targets, kinds: [hashlineKind(spawn, mode)], scenarios: [scenario] }, prepared);
    const tally = new Map<string, number>();
    for (const r of results) tally.set(r.judged.outcome, (tally.get(r.judged.outcome) ?? 0) + 1);
    for (const r of results) {
      if (r.judged.outcome === 'exact' || r.judged.outcome === 'merged' || r.judged.outcome === 'n/a') continue;
      const p = prepared.find((x) => x.index === r.index)!;
      const c = scenario.build({ target: p.target, edit: p.edit, rng: Rng.derive(seed, scenario.id, p.index), index: p.index });
      console.log(`=== #${r.index} ${r.judged.outcome}${r.judged.clear === false ? ' (unclear)' : ''} ${p.target.file.source} (${r.lines} lines), fn ${p.target.fn.name} ${p.target.fn.start + 1}-${p.target.fn.end + 1}`);
      if (c?.between.kind === 'prior') console.log(`--- prior edit (${c.between.edit.kind}):\n${toDsl(c.between.edit)}`);
      console.log(`--- edit (${p.edit.kind}):\n${toDsl(p.edit)}`);
      console.log(`--- reply:\n${r.reply ?? r.judged.note ?? ''}`);
    }
    console.log(`\n${[...tally].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
