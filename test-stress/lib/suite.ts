// The stress suite as node:test tests, one per part, for a given scale: `npm run test:stress`
// registers it at full scale, `npm test` (test/stress/) at short scale. Every part prints its
// figures. A part that finds a tool or command it drives missing ("not built") fails: every one of
// them ships, so a missing one is a regression, not a reason to skip.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { casWriters } from '../parts/cas-writers.js';
import { concurrentEdits } from '../parts/concurrent-edits.js';
import { daemonLoad } from '../parts/daemon-load.js';
import { fuzz } from '../parts/fuzz.js';
import { historyKill } from '../parts/history-kill.js';
import { killTrials } from '../parts/kill-trials.js';
import { lifecycleRace } from '../parts/lifecycle-race.js';
import { cliKind } from './hashline.js';
import { printFigures, type StressPlan } from './scale.js';

/** The parts, by name: `npm test` spreads them over a few files so they run side by side. */
export const STRESS_PARTS = ['concurrent-edits', 'lifecycle-race', 'cas-writers', 'kill-trials', 'history-kill', 'fuzz', 'daemon-load'] as const;
export type StressPart = (typeof STRESS_PARTS)[number];

/** Registers the tests of `parts` (all of them unless given), in the order of STRESS_PARTS. */
export function registerStressTests(plan: StressPlan, parts: readonly StressPart[] = STRESS_PARTS): void {
  const tag = `[${plan.scale}, hashline from ${cliKind()}]`;
  const part = (name: StressPart) => parts.includes(name);

  if (part('concurrent-edits')) {
    test(`${plan.clients} concurrent MCP clients edit the same files: no lost update, every refusal coded ${tag}`, async (t) => {
      const r = await concurrentEdits(plan);
      printFigures('concurrent-edits', r as unknown as Record<string, unknown>);
      assert.equal(r.notBuilt, undefined, `not built: ${r.notBuilt}`);
      t.diagnostic(`attempts ${r.attempts}, applied ${r.applied}, refused ${r.refused} ${JSON.stringify(r.codes)}, reads refused ${JSON.stringify(r.readRefusals)}`);
      assert.equal(r.lost, 0, 'lost updates');
      assert.equal(r.duplicated, 0, 'markers applied twice');
      assert.equal(r.resurrected, 0, 'refused edits that still landed');
      assert.equal(r.uncoded, 0, `refusals without a code: ${r.uncodedSamples.join(' | ')}`);
      assert.ok(r.applied > 0, 'no edit applied at all');
    });
  }

  if (part('lifecycle-race')) {
    test(`two hashline processes race file_rename and file_chattr on the same files; kill -9 of either leaves no lock behind ${tag}`, async (t) => {
      const r = await lifecycleRace(plan);
      printFigures('lifecycle-race', r as unknown as Record<string, unknown>);
      assert.equal(r.notBuilt, undefined, `not built: ${r.notBuilt}`);
      t.diagnostic(`renamed ${r.renamed}, chattr ${r.chattrs}, refused ${r.refused} ${JSON.stringify(r.codes)}, kills ${r.kills}, doubled by a kill ${r.doubledAfterKill}`);
      assert.equal(r.broken, 0, `slots lost, doubled or changed by the race: ${r.brokenSamples.join(' | ')}`);
      assert.equal(r.uncoded, 0, 'refusals without a code');
      assert.equal(r.leftovers, 0, 'backup or temporary files left in the tree');
      assert.ok(r.renamed > 0, 'no rename went through');
      assert.equal(r.lockTimeouts, 0, 'a lock of a killed process stood in the way');
      assert.equal(r.lostAfterKill, 0, `files lost or changed by a kill: ${r.brokenSamples.join(' | ')}`);
      assert.equal(r.kills, plan.scale === 'full' ? 6 : 1);
      assert.equal(r.locksLeft, 0, 'lock files left in the tree after a fresh start');
    });
  }

  if (part('cas-writers')) {
    test(`${plan.casWriters} boundary writers in read-hash-write loops on ${plan.casFiles} files for ${plan.casSeconds} s: 0 lost updates, 0 torn files ${tag}`, async (t) => {
      const r = await casWriters(plan);
      printFigures('cas-writers', r as unknown as Record<string, unknown>);
      assert.equal(r.notBuilt, undefined, `not built: ${r.notBuilt}`);
      t.diagnostic(`acknowledged ${r.acknowledged}, stale ${r.stale}, other errors ${r.otherErrors} ${r.samples.join(' | ')}`);
      assert.equal(r.lost, 0, 'lost updates');
      assert.equal(r.duplicated, 0, 'two writers acknowledged from the same base');
      assert.equal(r.resurrected, 0, 'writes that landed without an acknowledgement');
      assert.equal(r.torn, 0, `torn files: ${r.samples.join(' | ')}`);
      assert.equal(r.otherErrors, 0, r.samples.join(' | '));
      assert.ok(r.acknowledged > 0, 'no write acknowledged');
    });
  }

  if (part('kill-trials')) {
    // Both durability modes: `atomic` (the default: temp file + rename, no fsync) with the plan's
    // trials, `fsync` with half as many; neither may leave a torn file, a stray temp file or a dead lock.
    for (const mode of ['atomic', 'fsync'] as const) {
      const trials = mode === 'atomic' ? plan.killTrials : Math.max(3, Math.ceil(plan.killTrials / 2));
      let kill: Awaited<ReturnType<typeof killTrials>> | undefined;
      test(`${trials} kill -9 trials during writes, edits, rollbacks, rewrites and tar extraction (--durability ${mode}): no torn file ${tag}`, async (t) => {
        kill = await killTrials(plan, undefined, mode, trials);
        printFigures(`kill-trials-${mode}`, kill as unknown as Record<string, unknown>);
        assert.deepEqual(kill.notBuilt, [], 'modes whose part of hashline is missing');
        assert.equal(kill.trials, trials);
        assert.deepEqual(Object.entries(kill.tornByMode), [], `torn or half-written files: ${kill.tornSamples.join(', ')}`);
        assert.equal(kill.unexpected, 0, `unexpected files: ${kill.unexpectedSamples.join(', ')}`);
      });
      test(`kill -9 trials (--durability ${mode}): no stray temp file and no dead lock once hashline has started again ${tag}`, (t) => {
        assert.ok(kill, 'the kill trials did not run');
        t.diagnostic(`temp files right after the kills: ${kill.tempsAfterKill}; still there after a restart: ${kill.straysAfterRestart}`);
        assert.equal(kill.straysAfterRestart, 0, `stray temp files: ${kill.strayAfterRestartSamples.join(', ')}`);
        assert.equal(kill.deadLocksAfterRestart, 0, `locks of no live process left: ${kill.deadLockSamples.join(', ')}`);
      });
    }
  }

  if (part('history-kill')) {
    test(`${plan.historyKillTrials} kill -9 of a server mid edit batch: every acknowledged version is in the history store, integrity ok ${tag}`, async (t) => {
      const r = await historyKill(plan);
      printFigures('history-kill', r as unknown as Record<string, unknown>);
      t.diagnostic(`acknowledged batches ${r.acknowledged}, versions ${r.versions}, store ${r.storeBytes} bytes`);
      assert.equal(r.trials, plan.historyKillTrials);
      assert.ok(r.acknowledged > 0, 'no edit acknowledged at all');
      assert.equal(r.integrity, 'ok');
      assert.equal(r.missing, 0, `acknowledged versions missing from the store: ${r.missingSamples.join(' | ')}`);
    });
  }

  if (part('fuzz')) {
    test(`${plan.fuzzCases} fast-check cases per target over the DSL parser, the range rule and the guard: 0 crashes, 0 hangs ${tag}`, async (t) => {
      const all = await fuzz(plan);
      for (const f of all) {
        printFigures('fuzz', f as unknown as Record<string, unknown>);
      }
      assert.deepEqual(all.filter((f) => f.notBuilt).map((f) => `${f.target}: ${f.notBuilt}`), [], 'fuzz targets whose part of hashline is missing');
      assert.ok(all.length > 0, 'no fuzz target');
      for (const f of all) {
        assert.equal(f.crashes, 0, `${f.target} (seed ${f.seed}): ${f.samples.join(' | ')}`);
        assert.equal(f.hangs, 0, `${f.target} (seed ${f.seed}): cases over ${plan.fuzzCaseLimitMs} ms or a silent worker`);
        assert.equal(f.cases, plan.fuzzCases, `${f.target}: not every case ran`);
      }
    });
  }

  if (part('daemon-load')) {
    test(`the daemon under ${plan.loadConnections} connections for ${plan.loadSeconds} s: 0 5xx, memory flat ${tag}`, async (t) => {
      const r = await daemonLoad(plan);
      printFigures('daemon-load', r as unknown as Record<string, unknown>);
      assert.equal(r.notBuilt, undefined, `not built: ${r.notBuilt}`);
      assert.ok(r.requests > 0, 'no request answered');
      assert.equal(r.status5xx, 0, '5xx answers');
      if (plan.scale === 'full') assert.ok(r.memoryFlat, `RSS grew from ${r.rssStartMiB.toFixed(0)} to ${r.rssEndMiB.toFixed(0)} MiB`);
    });
  }
}
