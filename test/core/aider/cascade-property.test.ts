// Property tests of the one failure the cascade must never have: a block landing on a region it
// is not sure of. A search text that occurs twice never applies; a block quoted (imprecisely) from
// one of two identical passages never lands on either; and every approximate placement is checked
// against a brute-force oracle over all candidate regions: at or above the threshold, the unique
// best, and clear of every separate region by the margin. Exact placements equal a literal replace.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { placeBlock } from '../../../src/core/aider/cascade.js';
import { dmpRatio, FUZZY_MARGIN, FUZZY_THRESHOLD, fuzzyStep, windowSizes } from '../../../src/core/aider/fuzzy.js';
import { blockLines, LineIndex } from '../../../src/core/aider/line-index.js';
import { AIDER_MATCHERS } from '../../../src/core/config/config-schema.js';
import { applyEdits } from '../../../src/core/text/text-edits.js';

const WORDS = ['foo', 'bar', 'baz', 'qux', 'return', 'x', '(', ')', ';', '=', '  ', 'value', 'total'];
const line = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 7 }).map((w) => w.join(' '));
const nonBlankLine = fc.array(fc.constantFrom(...WORDS.filter((w) => w.trim() !== '')), { minLength: 2, maxLength: 7 }).map((w) => w.join(' '));
const lines = (min: number, max: number) => fc.array(line, { minLength: min, maxLength: max });

/** A few character edits (insert, delete, substitute) at random places. */
const mutate = (s: string) =>
  fc.array(fc.tuple(fc.constantFrom('ins', 'del', 'sub'), fc.nat(), fc.constantFrom('a', 'z', ' ', ';', 'Q')), { minLength: 1, maxLength: 4 }).map((ops) => {
    let t = s;
    for (const [op, at, c] of ops) {
      const p = t.length === 0 ? 0 : at % t.length;
      if (op === 'ins') t = t.slice(0, p) + c + t.slice(p);
      else if (op === 'del') t = t.slice(0, p) + t.slice(p + 1);
      else t = t.slice(0, p) + c + t.slice(p + 1);
    }
    return t;
  });

const join = (ls: readonly string[]) => (ls.length === 0 ? '' : `${ls.join('\n')}\n`);

test('a search text that occurs twice never applies', () => {
  fc.assert(
    fc.property(lines(0, 6), fc.array(nonBlankLine, { minLength: 1, maxLength: 4 }), lines(0, 6), lines(0, 6), fc.boolean(), (pre, block, mid, post, trailing) => {
      const text = join([...pre, ...block, ...mid, ...block, ...post]);
      const search = trailing ? join(block) : block.join('\n');
      const o = placeBlock(text, { search, replace: 'REPLACED\n' }, AIDER_MATCHERS);
      assert.equal(o.ok, false, JSON.stringify({ text, search, o }));
    }),
    { numRuns: 400 },
  );
});

test('a quote of one of two identical passages (same surroundings) never lands on either', () => {
  fc.assert(
    fc.property(
      lines(0, 5),
      fc.array(nonBlankLine, { minLength: 10, maxLength: 10 }),
      fc.array(nonBlankLine, { minLength: 1, maxLength: 6 }),
      fc.array(nonBlankLine, { minLength: 10, maxLength: 10 }),
      lines(1, 5),
      lines(0, 5),
      fc.boolean(),
      (pre, ctxA, block, ctxB, mid, post, trailing) =>
        fc.assert(
          fc.property(mutate(block.join('\n')), (quote) => {
            const all = [...pre, ...ctxA, ...block, ...ctxB, ...mid, ...ctxA, ...block, ...ctxB, ...post];
            const text = join(all);
            const first = pre.length + ctxA.length + 1;
            const second = first + block.length + ctxB.length + mid.length + ctxA.length;
            const copies = [
              [first, first + block.length - 1],
              [second, second + block.length - 1],
            ];
            const o = placeBlock(text, { search: trailing ? `${quote}\n` : quote, replace: 'REPLACED\n' }, AIDER_MATCHERS);
            if (!o.ok) return;
            const { startLine, endLine } = o.placement.span;
            for (const [a, b] of copies) assert.ok(endLine < a! || startLine > b!, JSON.stringify({ text, quote, o }));
          }),
          { numRuns: 3 },
        ),
    ),
    { numRuns: 150 },
  );
});

/** Every window the fuzzy step considers, with its diff-match-patch ratio. */
function oracle(text: string, search: string) {
  const index = new LineIndex(text);
  const n = blockLines(search).length;
  const body = blockLines(search).join('\n');
  const out: Array<{ i: number; m: number; ratio: number }> = [];
  for (const m of windowSizes(n, index.count)) {
    for (let i = 0; i + m <= index.count; i++) out.push({ i, m, ratio: dmpRatio(body, text.slice(index.start(i), index.end(i + m - 1))) });
  }
  return out;
}

test('every approximate placement is the unique best region, above the threshold and clear of separate regions (oracle)', () => {
  const sample = fc.oneof(
    // a quote of a window of the text, mutated
    { weight: 1, arbitrary: lines(3, 18).chain((ls) =>
      fc.tuple(fc.constant(ls), fc.nat({ max: ls.length - 1 }), fc.integer({ min: 1, max: 4 })).chain(([ls2, at, len]) =>
        fc.tuple(fc.constant(join(ls2)), mutate(ls2.slice(at, at + len).join('\n'))),
      ),
    ) },
    // an unrelated quote
    { weight: 1, arbitrary: fc.tuple(lines(3, 18).map(join), lines(1, 4).map((l) => l.join('\n'))) },
    // near-duplicate passages: lines drawn from a tiny pool, some of them mutated, quoted with mutations
    { weight: 4, arbitrary: fc.array(nonBlankLine, { minLength: 2, maxLength: 3 }).chain((pool) =>
      fc.array(fc.tuple(fc.constantFrom(...pool), fc.boolean()), { minLength: 3, maxLength: 14 }).chain((picks) =>
        fc.tuple(...picks.map(([l, m]) => (m ? mutate(l) : fc.constant(l)))).chain((ls) =>
          fc.tuple(fc.nat({ max: ls.length - 1 }), fc.integer({ min: 1, max: 3 })).chain(([at, len]) => fc.tuple(fc.constant(join(ls)), mutate(ls.slice(at, at + len).join('\n')))),
        ),
      ),
    ) },
  );
  let placed = 0;
  fc.assert(
    fc.property(sample, fc.boolean(), ([text, quote], trailing) => {
      const search = trailing ? `${quote}\n` : quote;
      const r = fuzzyStep(text, search, 'R');
      const all = oracle(text, search);
      if (r.kind !== 'placed') {
        // completeness: a clear winner is found unless the step said why not
        if (r.kind === 'none' && r.note === undefined && all.length > 0) {
          const best = all.reduce((a, b) => (b.ratio < a.ratio ? b : a));
          const clear = all.every((w) => w === best || (Math.abs(w.ratio - best.ratio) > 1e-9 && (w.i < best.i + best.m && best.i < w.i + w.m ? true : w.ratio > best.ratio + FUZZY_MARGIN)));
          assert.ok(!(clear && best.ratio <= 1 - FUZZY_THRESHOLD), JSON.stringify({ text, search, best, r }));
        }
        return;
      }
      placed++;
      const { startLine, endLine } = r.placement.span;
      const chosen = all.find((w) => w.i === startLine - 1 && w.m === endLine - startLine + 1);
      assert.ok(chosen, 'the placement is one of the candidate regions');
      assert.ok(chosen.ratio <= 1 - FUZZY_THRESHOLD + 1e-9, `below the threshold: ${chosen.ratio}`);
      for (const w of all) {
        if (w === chosen) continue;
        assert.ok(w.ratio > chosen.ratio + 1e-9, `a region as good or better: ${JSON.stringify({ text, search, w, chosen })}`);
        const separate = w.i >= chosen.i + chosen.m || chosen.i >= w.i + w.m;
        if (separate) assert.ok(w.ratio > chosen.ratio + FUZZY_MARGIN, `a separate region within the margin: ${JSON.stringify({ text, search, w, chosen })}`);
      }
    }),
    { numRuns: 1500 },
  );
  assert.ok(placed > 20, `the sample placed something often enough to test (${placed})`);
});

test('an exact placement is a literal replace of the one occurrence', () => {
  fc.assert(
    fc.property(lines(0, 8), nonBlankLine, lines(0, 8), fc.string({ maxLength: 20 }), (pre, target, post, replace) => {
      const marker = `${target} #unique#`;
      const text = join([...pre, marker, ...post]);
      const o = placeBlock(text, { search: marker, replace }, AIDER_MATCHERS);
      assert.equal(o.ok, true);
      if (!o.ok) return;
      assert.equal(o.placement.method, 'exact');
      assert.equal(applyEdits(text, [o.placement.edit]), text.replace(marker, () => replace.replace(/\r\n?/g, '\n')));
    }),
    { numRuns: 200 },
  );
});
