// The agent-cost arithmetic of the fidelity bench: the per-task floor (the function's raw text plus
// the lines the edit writes) and the ratios, measured and floor, over the tasks both agents did.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Target } from '../../bench/fidelity/corpus.js';
import { CONVERSATION_CALLS, costSummaries, perCallShare, taskFloor, taskTokens, type TaskTokens } from '../../bench/fidelity/tokens.js';

const target: Target = {
  file: { source: '/x/a.ts', lang: 'typescript', ext: 'ts', lines: ['// head', 'function f(a) {', '  return a + 1;', '}', '// tail'] },
  fn: { name: 'f', start: 1, end: 3, def: 1 },
  others: [],
};

test('the floor is the function as it is in the file plus the rows the edit writes, nothing else', () => {
  const fn = 'function f(a) {\n  return a + 1;\n}';
  const rows = '  const b = a;\n  return b + 1;';
  const edit = { kind: 'body-rewrite' as const, hunks: [{ start: 2, end: 3, rows: ['  const b = a;', '  return b + 1;'] }] };
  assert.equal(taskFloor(target, edit), countTokens(fn) + countTokens(rows));
  // a deletion writes no line: the floor is the function alone
  assert.equal(taskFloor(target, { kind: 'deletion', hunks: [{ start: 2, end: 3, rows: [] }] }), countTokens(fn));
  // the line numbers and header a hashline read adds are not part of it
  assert.ok(taskFloor(target, edit) < countTokens(`¶a.ts#1A2B\n2| function f(a) {\n3|   return a + 1;\n4| }`) + countTokens(rows));
});

const t = (index: number, lines: number, total: number): TaskTokens => ({ index, lines, readRequest: 0, readReply: total, editRequest: 0, editReply: 0, definitions: 0, total });

test('ratios and floors are per task against the anchor, over the tasks both completed', () => {
  const byKind = new Map<string, TaskTokens[]>([
    ['reference', [t(1, 50, 100), t(2, 50, 200), t(3, 600, 1000), t(4, 50, 400)]],
    // task 4 was not completed by this agent: it counts in neither its ratios nor its floors
    ['ours', [t(1, 50, 50), t(2, 50, 50), t(3, 600, 100)]],
  ]);
  const floors = new Map([
    [1, 20],
    [2, 20],
    [3, 50],
    [4, 400],
  ]);
  const [ref, ours] = costSummaries(byKind, 'reference', { floors });
  assert.equal(ref!.ratio, undefined);
  assert.equal(ours!.total, 200);
  // ratios 0.5, 0.25, 0.1; floors 0.2, 0.1, 0.05
  assert.equal(ours!.ratio!.median, 0.25);
  assert.ok(Math.abs(ours!.ratio!.p90 - 0.45) < 1e-9);
  assert.equal(ours!.ratio!.floor!.median, 0.1);
  assert.ok(Math.abs(ours!.ratio!.floor!.p90 - 0.18) < 1e-9);
  assert.deepEqual(ours!.ratio!.large, { tasks: 1, median: 0.1, p90: 0.1, floor: { median: 0.05, p90: 0.05 } });
  // without floors, no floor is reported
  assert.equal(costSummaries(byKind, 'reference')[1]!.ratio!.floor, undefined);
});

test('each call of a task carries its share of the definitions, amortised over a 20-call conversation', () => {
  const call = { tool: 'x', request: 'abc', reply: 'def' };
  const r = { kind: 'k', scenario: 'fresh', index: 1, lang: 'typescript', lines: 10, editKind: 'body-rewrite', judged: { outcome: 'exact' }, read: [call, call], edit: [call] } as unknown as Parameters<typeof taskTokens>[0];
  assert.equal(CONVERSATION_CALLS, 20);
  const bare = taskTokens(r)!;
  assert.equal(bare.definitions, 0);
  const withDefs = taskTokens(r, perCallShare(3000))!;
  // 3 calls, each 3000 / 20 = 150 tokens of the definitions
  assert.equal(withDefs.definitions, 450);
  assert.equal(withDefs.total, bare.total + 450);
  const [sum] = costSummaries(new Map([['k', [withDefs]]]), 'reference');
  assert.equal(sum!.definitions, 450);
});
