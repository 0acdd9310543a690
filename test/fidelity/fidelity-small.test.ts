// The small edit-fidelity benchmark inside `npm test`: 50 edits of real source files found on this
// machine, each replayed through two scenarios per hashline read mode (100 edits per mode), through
// a spawned `hashline mcp` and the official SDK client. It fails on any wrong apply or crash, and
// checks the harness's own tag rule against the engine's. The full run is `npm run bench:fidelity`.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { hashlineKind } from '../../bench/fidelity/agents/hashline.js';
import { tagOf } from '../../bench/fidelity/collide.js';
import { findSources, pickTargets } from '../../bench/fidelity/corpus.js';
import { Rng } from '../../bench/fidelity/rng.js';
import { prepareEdits, runAll, type TaskResult } from '../../bench/fidelity/runner.js';
import { SCENARIOS } from '../../bench/fidelity/scenarios.js';
import { computeTag } from '../../src/core/tag.js';
import { CLI_SOURCE, REPO } from '../helpers/mcp-client.js';

const EDITS = 50;
const SEED = 7;
const PLAN: Record<string, readonly string[]> = {
  'hashline-whole': ['moved-block', 'copy-above'],
  'hashline-symbol': ['collision-same-lines', 'formatter-reindent'],
};

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
    const spawn = { command: process.execPath, args: ['--import', 'tsx', CLI_SOURCE], cwd: REPO };
    const kinds = [hashlineKind(spawn, 'whole'), hashlineKind(spawn, 'symbol')];
    const scenarios = SCENARIOS.filter((s) => Object.values(PLAN).some((l) => l.includes(s.id)));
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
      assert.ok(ran.length >= mine.length * 0.8, `${kind} ${sc}: ${ran.length} of ${mine.length} ran`);
      assert.ok(ran.every((r) => ['exact', 'merged', 'refused'].includes(r.judged.outcome)));
    }
  }
  const unclear = results.filter((r) => r.judged.outcome === 'refused' && !r.judged.clear);
  assert.deepEqual(
    unclear.slice(0, 5).map((r) => `${r.kind} ${r.scenario} #${r.index}: ${r.reply?.split('\n').slice(0, 4).join(' / ')}`),
    [],
    'every refusal names what changed and the next call',
  );
});
