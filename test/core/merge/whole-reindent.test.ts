// The whole-file re-indent proof: taken only when every line of the read text is the live line at
// the same number, re-indented by one rule that keeps indentations apart and shown by two lines.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { piecesToLines } from '../../../src/core/edit/apply.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { decideEdit, type SessionVersion } from '../../../src/core/merge/recover.js';
import { wholeFileReindent } from '../../../src/core/merge/whole-reindent.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { hunksToDsl, type Hunk } from './hunk-dsl.js';

const double = (lines: string[]) => lines.map((l) => l.replace(/^ +/, (s) => s + s));
const READ = ['def f():', '  x = 1', '  if x:', '    return x', '', '  return 0'];

test('every line doubled in place: the rule re-indents rows like the file', () => {
  const w = wholeFileReindent(READ, double(READ));
  assert.ok(w);
  assert.deepEqual(w.rows(['  y = 2', '      deep', '', 'top']), ['    y = 2', '            deep', '', 'top']);
  // a tab was never seen: the rule cannot say what it became
  assert.equal(w.rows(['\ty = 2']), null);
});

test('tabs to 8 spaces and spaces doubled (a mixed file), kept apart: one rule for both', () => {
  const read = ['a', '\tb', '\t\tc', '  d'];
  const w = wholeFileReindent(read, read.map((l) => l.replace(/^[ \t]+/, (s) => s.replace(/\t/g, '    ').replace(/ /g, '  '))));
  assert.ok(w);
  assert.deepEqual(w.rows(['\t  e']), ['            e']);
});

test('not proven: lines added, removed or reordered, text changed, or the indentation left as it was', () => {
  const live = double(READ);
  assert.equal(wholeFileReindent(READ, [...live, 'more']), null);
  assert.equal(wholeFileReindent(READ, live.slice(1)), null);
  assert.equal(wholeFileReindent(READ, [live[0]!, live[2]!, live[1]!, ...live.slice(3)]), null);
  assert.equal(wholeFileReindent(READ, live.map((l, i) => (i === 3 ? '        return y' : l))), null);
  // only trailing blanks changed: no re-indentation to prove (the window's own rule handles that)
  assert.equal(wholeFileReindent(READ, READ.map((l) => `${l} `)), null);
});

test('not proven: one line re-indented (one line fits any rule), or lines re-indented by no single rule', () => {
  assert.equal(wholeFileReindent(READ, READ.map((l, i) => (i === 1 ? `  ${l}` : l))), null);
  // the same read indentation made two different ones
  assert.equal(wholeFileReindent(READ, READ.map((l, i) => (i === 1 ? `    ${l.trim()}` : i === 5 ? `      ${l.trim()}` : l))), null);
});

test('not proven: two read indentations made one (a tab and 8 spaces both 8 spaces now), so the lines are no longer told apart', () => {
  const read = ['int f() {', '\tif (a) {', '\t\tx();', '        }', '\t}', '}'];
  assert.equal(wholeFileReindent(read, read.map((l) => l.replace(/\t/g, '        '))), null);
});

// Property: a file of repeating lines (tabs and spaces), an edit of 1-3 hunks written against it,
// and a formatter pass over the whole file (tabs to 4 spaces, every space doubled, perhaps trailing
// blanks). decideEdit must give the edited file formatted the same way, each hunk's rows as sent or
// formatted, or refuse; never anything else.
// (no brackets: the boundary-balance repair of a dropped or restated closing line is tested on its own)
const POOL = ['fi', '', 'return x;', 'call();', 'end'];
const lineArb = fc.tuple(fc.constantFrom(...POOL), fc.constantFrom('', '  ', '    ', '\t', '\t\t', '\t  ')).map(([t, i]) => (t === '' ? '' : i + t));
const format = (trail: boolean) => (l: string) => l.replace(/^[ \t]+/, (s) => s.replace(/\t/g, '    ').replace(/ /g, '  ')) + (trail && l.trim() !== '' ? ' ' : '');

type H = Hunk;

test('property: after a whole-file formatter pass a stale edit lands line for line, rows as sent or formatted, or is refused', () => {
  const hunksArb = (n: number) =>
    fc.array(fc.record({ at: fc.nat(n), len: fc.integer({ min: 0, max: 3 }), rows: fc.array(lineArb.filter((r) => r !== ''), { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }).map((specs) => {
      const out: H[] = [];
      let next = 0;
      for (const s of [...specs].sort((a, b) => a.at - b.at)) {
        const start = Math.max(s.at, next);
        if (start > n) continue;
        out.push({ start, end: Math.min(n, start + s.len), rows: s.rows });
        next = Math.min(n, start + s.len) + 2;
      }
      return out;
    });
  const cases = fc.array(lineArb, { minLength: 3, maxLength: 25 }).chain((read) => fc.tuple(fc.constant(read), hunksArb(read.length), fc.boolean()));
  let merged = 0;
  fc.assert(
    fc.property(cases, ([read, hunks, trail]) => {
      fc.pre(hunks.length > 0);
      const f = format(trail);
      const live = read.map(f);
      const text = (lines: readonly string[]) => (lines.length ? `${lines.join('\n')}\n` : '');
      const readText = text(read);
      fc.pre(text(live) !== readText);
      const version: SessionVersion = { tag: computeTag(readText), text: readText, seen: new Set(read.map((_, i) => i + 1)) };
      let got: string[];
      try {
        const d = decideEdit({ ops: parseEditOps(hunksToDsl(hunks)).ops, tag: version.tag, live: { text: text(live), lines: live, tag: computeTag(text(live)) }, versions: [version] });
        got = piecesToLines(live, d.pieces);
      } catch (e) {
        if ((e as { code?: string }).code === 'edit_rejected') return;
        throw e;
      }
      merged++;
      // each hunk's rows as sent or formatted (blank and trailing blanks aside: rows keep their own)
      const options = (formatRows: boolean[]) => {
        const out: string[] = [];
        let k = 0;
        hunks.forEach((h, n) => {
          for (; k < h.start; k++) out.push(f(read[k]!));
          out.push(...h.rows.map((r) => (formatRows[n] ? format(false)(r) : r)));
          k = h.end;
        });
        for (; k < read.length; k++) out.push(f(read[k]!));
        return out;
      };
      const all = [...Array(1 << hunks.length).keys()].map((m) => options(hunks.map((_, n) => ((m >> n) & 1) === 1)));
      assert.ok(all.some((want) => want.length === got.length && want.every((l, i) => l === got[i])), `wrong result:\n${got.join('\n')}\n--- intended (rows formatted):\n${all.at(-1)!.join('\n')}`);
    }),
    { numRuns: 1500 },
  );
  assert.ok(merged > 300, `only ${merged} merged`);
});
