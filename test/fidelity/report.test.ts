// The fidelity report's token goals: each measured ratio shown beside its floor, and a goal the
// floor itself exceeds said to be out of reach for any line-addressed tool on that corpus.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goals } from '../../bench/fidelity/report.js';
import type { CostSummary } from '../../bench/fidelity/tokens.js';

const cost = (ratio: CostSummary['ratio']): CostSummary => ({ kind: 'hashline-symbol', tasks: 10, readRequest: 0, readReply: 0, editRequest: 0, editReply: 0, definitions: 0, total: 0, ratio });

test('a token goal shows each ratio with its floor, and says when the floor is above the goal', () => {
  const [all, large] = goals(new Map(), [], [cost({ median: 0.2, p90: 0.5, floor: { median: 0.09, p90: 0.31 }, large: { tasks: 3, median: 0.03, p90: 0.05, floor: { median: 0.01, p90: 0.02 } } })]);
  assert.equal(all!.measured, 'median 0.200× (floor 0.090×), p90 0.500× (floor 0.310×); the p90 floor is above 0.25×: no line-addressed tool can meet this on this corpus');
  assert.equal(all!.met, false);
  assert.equal(large!.measured, 'median 0.030× (floor 0.010×), p90 0.050× (floor 0.020×)');
  assert.equal(large!.met, true);
  // without a floor, the ratios alone
  const [bare] = goals(new Map(), [], [cost({ median: 0.2, p90: 0.24 })]);
  assert.equal(bare!.measured, 'median 0.200×, p90 0.240×');
  assert.equal(bare!.met, true);
});
