// The small edit-fidelity benchmark inside `npm test`: 50 edits of real source files found on this
// machine, each replayed through two scenarios per hashline read mode (100 edits per mode) and, for
// the boundary family (file_read, then file_patch with aider blocks), a fresh file, a quote at
// another indentation and a quote of a block that occurs twice, through a spawned `hashline mcp`
// and the official SDK client. It fails on any wrong apply or crash, and checks the harness's own
// tag rule against the engine's. The full run is `npm run bench:fidelity`.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { boundaryKind } from '../../bench/fidelity/agents/boundary.js';
import { hashlineKind } from '../../bench/fidelity/agents/hashline.js';
import { tagOf } from '../../bench/fidelity/collide.js';
import { findSources, pickTargets } from '../../bench/fidelity/corpus.js';
import { Rng } from '../../bench/fidelity/rng.js';
import { QUOTE_SCENARIOS } from '../../bench/fidelity/quote-scenarios.js';
import { prepareEdits, runAll, type TaskResult } from '../../bench/fidelity/runner.js';
import { SCENARIOS } from '../../bench/fidelity/scenarios.js';
import { computeTag } from '../../src/core/text/tag.js';
import { cliArgs, REPO } from '../helpers/mcp-client.js';

const EDITS = 50;
const SEED = 7;
const PLAN: Record<string, readonly string[]> = {
  'hashline-whole': ['moved-block', 'copy-above'],
  'hashline-symbol': ['collision-same-lines', 'formatter-reindent'],
  boundary: ['fresh', 'quote-indent', 'quote-repeated'],
};
/** Scenarios that do not apply to every edit (a misquote needs an edit whose result parses, a common indentation). */
const MIN_RAN: Record<string, number> = { 'quote-indent': 0.5 };

test('fidelity, small: no wrong apply and no crash over real files', { timeout: 240_000 }, async () => {
  const targets = pickTargets(findSources(REPO), { edits: EDITS, rng: new Rng(SEED) });
  assert.ok(targets.length >= EDITS * 0.9, `only ${targets.length} targets found`);
  for (const t of targets.slice(0, 5)) {
    const text = `${t.file.lines.join('\n')}\n`;
    assert.equal(tagOf(text), computeTag(text), 'the harness computes tags as the engine does');
  }
  const prepared = prepareEdits(targets, SEED);
  const root = mkdtempSync(path.join(os.tmpdir(), 'hl-fidelity-'));
  const state = mkdtempSync(path.join(os.tmpdir(), 'hl-fidelity-state-'));
  const saved = process.env.XDG_STATE_HOME;
  process.env.XDG_STATE_HOME = state;
  let results: TaskResult[];
  try {
    const spawn = { command: process.execPath, args: cliArgs(), cwd: REPO };
    const kinds = [hashlineKind(spawn, 'whole'), hashlineKind(spawn, 'symbol'), boundaryKind(spawn)];
    const scenarios = [...SCENARIOS, ...QUOTE_SCENARIOS].filter((s) => Object.values(PLAN).some((l) => l.includes(s.id)));
    results = await runAll({ root, seed: SEED, targets, kinds, scenarios, runs: (k, s) => PLAN[k.id]!.includes(s.id) }, prepared);
  } finally {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
    rmSync(root, { recursive: true, force: true });
    rmSync(state, { recursive: true, force: true });
  }
  const bad = results.filter((r) => r.judged.outcome === 'wrong' || r.judged.outcome === 'crash');
  assert.deepEqual(
    bad.slice(0, 10).map((r) => `${r.kind} ${r.scenario} #${r.index}: ${r.judged.outcome} (${r.judged.note ?? ''}) ${r.reply?.slice(0, 300) ?? ''}`),
    [],
    `${bad.length} wrong applies or crashes`,
  );
  for (const [kind, scenarios] of Object.entries(PLAN)) {
    for (const sc of scenarios) {
      const mine = results.filter((r) => r.kind === kind && r.scenario === sc);
      const ran = mine.filter((r) => r.judged.outcome !== 'n/a');
      // the scenario really ran for most edits, and every edit ended in an accepted class
      assert.ok(ran.length >= mine.length * (MIN_RAN[sc] ?? 0.8), `${kind} ${sc}: ${ran.length} of ${mine.length} ran`);
      assert.ok(ran.every((r) => ['exact', 'merged', 'refused'].includes(r.judged.outcome)));
    }
  }
  // the boundary family: a quote at another indentation lands (and where the cascade says), a repeated block never does
  const of = (sc: string) => results.filter((r) => r.kind === 'boundary' && r.scenario === sc && r.judged.outcome !== 'n/a');
  const indent = of('quote-indent');
  const placed = indent.filter((r) => r.judged.outcome === 'exact');
  assert.ok(placed.length >= indent.length * 0.9, `quote-indent: ${placed.length} of ${indent.length} placed`);
  assert.ok(placed.every((r) => r.methods?.length === 1 && ['exact', 'relative-indentation'].includes(r.methods[0]!)), 'an indentation shift is placed by the exact or the indentation step');
  const repeated = of('quote-repeated');
  assert.deepEqual(repeated.filter((r) => r.code !== 'aider_ambiguous').map((r) => `#${r.index}: ${r.judged.outcome} ${r.code ?? ''}`), [], 'a repeated block is refused as ambiguous');
  const unclear = results.filter((r) => r.judged.outcome === 'refused' && !r.judged.clear);
  assert.deepEqual(
    unclear.slice(0, 5).map((r) => `${r.kind} ${r.scenario} #${r.index}: ${r.reply?.split('\n').slice(0, 4).join(' / ')}`),
    [],
    'every refusal names what changed and the next call',
  );
});
