// Properties of the edit DSL (fast-check): a random valid plan, printed, parsed and applied, equals
// a plain list model built alongside it; printing then parsing any plan gives the same ops.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { applyHunks, piecesToLines } from '../../../src/core/edit/apply.js';
import type { EditOp } from '../../../src/core/edit/ops.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { resolvePlan } from '../../../src/core/edit/plan.js';
import { printEditOps } from '../../../src/core/edit/print.js';

const rowArb = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '+', '-', '#', '*', '1', '.', 'Ω', '🙂', ':'), maxLength: 6 });
const rowsArb = fc.array(rowArb, { minLength: 1, maxLength: 3 });

type Choice =
  | { t: 'keep'; before?: string[] | undefined; after?: string[] | undefined }
  | { t: 'range'; len: number; rows: string[] };

const choiceArb: fc.Arbitrary<Choice> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('keep' as const), before: fc.option(rowsArb, { nil: undefined }), after: fc.option(rowsArb, { nil: undefined }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('range' as const), len: fc.integer({ min: 1, max: 4 }), rows: fc.oneof(rowsArb, fc.constant([] as string[])) }) },
);

const scenarioArb = fc.record({
  lines: fc.array(rowArb, { maxLength: 25 }),
  choices: fc.array(choiceArb, { maxLength: 25 }),
  head: fc.option(rowsArb, { nil: undefined }),
  tail: fc.option(rowsArb, { nil: undefined }),
  seed: fc.integer(),
});

/** Builds ops and the expected lines in one walk over the file (the model: plain list building). */
function build(s: { lines: string[]; choices: Choice[]; head: string[] | undefined; tail: string[] | undefined; seed: number }) {
  const ops: EditOp[] = [];
  const model: string[] = [];
  if (s.head) {
    ops.push({ kind: 'insert_head', rows: s.head, dslLine: 0 });
    model.push(...s.head);
  }
  let i = 0;
  let k = 0;
  while (i < s.lines.length) {
    const c = s.choices[k++] ?? { t: 'keep' };
    const line = i + 1;
    if (c.t === 'range') {
      const end = Math.min(s.lines.length, line + c.len - 1);
      ops.push(c.rows.length > 0 ? { kind: 'replace', start: line, end, rows: c.rows, dslLine: 0 } : { kind: 'delete', start: line, end, dslLine: 0 });
      model.push(...c.rows);
      i = end;
      continue;
    }
    if (c.before) ops.push({ kind: 'insert_before', line, rows: c.before, dslLine: 0 });
    if (c.after) ops.push({ kind: 'insert_after', line, rows: c.after, dslLine: 0 });
    model.push(...(c.before ?? []), s.lines[i]!, ...(c.after ?? []));
    i++;
  }
  if (s.tail) {
    ops.push({ kind: 'insert_tail', rows: s.tail, dslLine: 0 });
    model.push(...s.tail);
  }
  // Order of hunks carries no meaning: shuffle deterministically.
  let x = s.seed >>> 0;
  for (let j = ops.length - 1; j > 0; j--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const r = x % (j + 1);
    [ops[j], ops[r]] = [ops[r]!, ops[j]!];
  }
  return { ops, model };
}

const withoutLines = (ops: readonly EditOp[]) => ops.map((o) => ({ ...o, dslLine: 0 }));

test('property: a random valid plan, printed, parsed and applied, equals the list model', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { ops, model } = build(s);
      fc.pre(ops.length > 0);
      const text = s.lines.length === 0 ? '' : s.lines.join('\n') + '\n';
      const plan = parseEditOps(printEditOps(ops));
      const hunks = resolvePlan(plan.ops, { lineCount: s.lines.length, text });
      assert.deepEqual(piecesToLines(s.lines, applyHunks(s.lines, hunks)), model);
    }),
    { numRuns: 500 },
  );
});

const opArb: fc.Arbitrary<EditOp> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 50 }), rowsArb).map(([a, d, rows]): EditOp => ({ kind: 'replace', start: a, end: a + d, rows, dslLine: 0 })),
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 0, max: 50 })).map(([a, d]): EditOp => ({ kind: 'delete', start: a, end: a + d, dslLine: 0 })),
  fc.tuple(fc.constantFrom('insert_before' as const, 'insert_after' as const), fc.integer({ min: 1, max: 500 }), rowsArb).map(([kind, line, rows]): EditOp => ({ kind, line, rows, dslLine: 0 })),
  fc.tuple(fc.constantFrom('insert_head' as const, 'insert_tail' as const), rowsArb).map(([kind, rows]): EditOp => ({ kind, rows, dslLine: 0 })),
  fc.tuple(fc.integer({ min: 1, max: 500 }), rowsArb).map(([line, rows]): EditOp => ({ kind: 'replace_block', line, rows, dslLine: 0 })),
  fc.integer({ min: 1, max: 500 }).map((line): EditOp => ({ kind: 'delete_block', line, dslLine: 0 })),
);

test('property: print then parse is the identity on plans', () => {
  fc.assert(
    fc.property(fc.array(opArb, { minLength: 1, maxLength: 12 }), (ops) => {
      const text = printEditOps(ops);
      const parsed = parseEditOps(text);
      assert.deepEqual(withoutLines(parsed.ops), withoutLines(ops));
      assert.deepEqual(parsed.warnings, []);
      assert.equal(printEditOps(parsed.ops), text);
    }),
    { numRuns: 500 },
  );
});
