// The diff read off an edit's pieces: the same text as jsdiff's unified diff on typical edits, a
// valid patch (jsdiff applies it and gets the edited text) on random ones, and linear cost (counted
// in line reads; its timing is `npm run bench:piece-diff`).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { applyHunks, materialize, textLines } from '../../../src/core/edit/apply.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { pieceDiff, pieceDiffWhole } from '../../../src/core/edit/piece-diff.js';
import type { Piece } from '../../../src/core/edit/ops.js';
import { resolvePlan } from '../../../src/core/edit/plan.js';
import { unifiedDiff, firstChangedLine } from '../../../src/core/text/unified-diff.js';

function run(before: string, ops: string) {
  const doc = parseDoc(new TextEncoder().encode(before));
  const lines = textLines(before);
  const pieces = applyHunks(lines, resolvePlan(parseEditOps(ops).ops, { lineCount: lines.length, text: before }));
  const next = materialize(doc, pieces);
  const after = docText(next);
  const d = pieceDiff(
    'f.txt',
    { lines: doc.lines, finalNewline: before.endsWith('\n') },
    pieces,
    { lines: next.lines, finalNewline: next.endings[next.endings.length - 1] !== '' },
  );
  return { after, ...d };
}

const FILE = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

const SAME_AS_JSDIFF: Array<[string, string, string]> = [
  ['one replacement', FILE, 'replace 10:\n+ten'],
  ['two regions in one hunk', FILE, 'replace 10:\n+ten\ndelete 15'],
  ['two hunks', FILE, 'replace 3:\n+three\ninsert after 25:\n+x\n+y'],
  ['edges', FILE, 'insert head:\n+h\ninsert tail:\n+t\ndelete 30'],
  ['delete a range', FILE, 'delete 5..20'],
  ['a replacement that keeps its first and last line', FILE, 'replace 4..6:\n+line 4\n+middle\n+line 6'],
  ['no final newline, edit elsewhere', 'a\nb\nc\nd\ne\nf\ng\nh\ni', 'replace 2:\n+B'],
  ['no final newline, edit at the end', 'a\nb\nc', 'replace 3:\n+C'],
  ['no final newline, append', 'a\nb\nc', 'insert tail:\n+d'],
  ['no final newline, delete the last line', 'a\nb\nc', 'delete 3'],
];

for (const [name, before, ops] of SAME_AS_JSDIFF) {
  test(`pieceDiff matches jsdiff: ${name}`, () => {
    const r = run(before, ops);
    assert.equal(r.diff, unifiedDiff('f.txt', before, r.after));
    // jsdiff counts the unterminated last line as unchanged when lines follow it; the pieces say it changed
    if (name !== 'no final newline, append') assert.equal(r.firstChangedLine, firstChangedLine(before, r.after));
  });
}

test('pieceDiff: nothing changed, and a replacement by the same text', () => {
  assert.deepEqual(run(FILE, 'replace 3:\n+line 3'), { after: FILE, diff: undefined, firstChangedLine: undefined });
});

test('pieceDiff: a line deleted and the same line added at the end leave the text as it was: no diff', () => {
  assert.deepEqual(run('}\n}\n', 'insert after 2:\n+}\ndelete 1..1'), { after: '}\n}\n', diff: undefined, firstChangedLine: undefined });
});

test('pieceDiff: an empty file gains lines; a file loses all of them', () => {
  assert.equal(run('', 'insert head:\n+a').diff, '--- f.txt\n+++ f.txt\n@@ -0,0 +1,1 @@\n+a\n');
  assert.equal(run('a\nb\n', 'delete 1..2').diff, '--- f.txt\n+++ f.txt\n@@ -1,2 +0,0 @@\n-a\n-b\n');
});

test('property: the diff is a patch that turns the text into the edited text', () => {
  const lineArb = fc.constantFrom('a', 'b', 'c', '', '  x', '}');
  fc.assert(
    fc.property(
      fc.array(lineArb, { maxLength: 40 }),
      fc.boolean(),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.array(lineArb, { maxLength: 3 }), fc.constantFrom('replace', 'after')), { maxLength: 6 }),
      (lines, finalNewline, edits) => {
        const before = lines.join('\n') + (finalNewline ? '\n' : '');
        const n = textLines(before).length;
        fc.pre(n > 0);
        const used = new Set<number>();
        const ops: string[] = [];
        for (const [s0, len, rows, kind] of edits) {
          const s = (s0 % n) + 1;
          const e = Math.min(n, s + len);
          let free = true;
          for (let k = s; k <= e; k++) if (used.has(k)) free = false;
          if (!free) continue;
          for (let k = s; k <= e; k++) used.add(k);
          if (kind === 'after') ops.push(`insert after ${e}:`, ...(rows.length ? rows : ['z']).map((r) => `+${r}`));
          else if (rows.length === 0) ops.push(`delete ${s}..${e}`);
          else ops.push(`replace ${s}..${e}:`, ...rows.map((r) => `+${r}`));
        }
        fc.pre(ops.length > 0);
        const r = run(before, ops.join('\n'));
        if (r.after === before) assert.equal(r.diff, undefined);
        else assert.equal(applyPatch(before, r.diff!), r.after);
      },
    ),
    { numRuns: 1000 },
  );
});

/** `items` behind a proxy that counts reads of its elements (the work a diff does is reading lines). */
function counted<T>(items: readonly T[], count: { reads: number }): readonly T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) count.reads++; // an index
      return Reflect.get(target, key, receiver);
    },
  });
}

test('pieceDiff: 1,000 changes on 10^5 lines read each line a bounded number of times (linear, not per change)', () => {
  const text = Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const ops = Array.from({ length: 1000 }, (_, k) => `replace ${k * 100 + 1}:\n+changed ${k}`).join('\n');
  const doc = parseDoc(new TextEncoder().encode(text));
  const lines = textLines(text);
  const pieces = applyHunks(lines, resolvePlan(parseEditOps(ops).ops, { lineCount: lines.length, text }));
  const next = materialize(doc, pieces);
  const lineReads = { reads: 0 };
  const pieceReads = { reads: 0 };
  const r = pieceDiff('f.txt', { lines: counted(doc.lines, lineReads), finalNewline: true }, counted(pieces, pieceReads), { lines: counted(next.lines, lineReads), finalNewline: true });
  assert.equal((r.diff!.match(/^@@ /gm) ?? []).length, 1000);
  // a generic line diff compares on the order of lines × changes (10^8 here); this reads each line
  // about twice (about 2.1 × 10^5 reads in all) and each piece once
  const sides = doc.lines.length + next.lines.length;
  assert.ok(lineReads.reads <= 2 * sides, `${lineReads.reads} line reads for ${sides} lines`);
  assert.ok(pieceReads.reads <= 2 * pieces.length, `${pieceReads.reads} piece reads for ${pieces.length} pieces`);
});

test('property: leaving out the kept ends gives the same diff, byte for byte, as the pass over the whole texts', () => {
  const lineArb = fc.constantFrom('a', 'b', 'c', '', '  x', '}');
  const side = (lines: string[], finalNewline: boolean) => ({ lines, finalNewline });
  fc.assert(
    fc.property(
      fc.array(lineArb, { minLength: 1, maxLength: 80 }),
      fc.nat({ max: 80 }),
      fc.nat({ max: 80 }),
      fc.array(fc.oneof(fc.record({ src: fc.nat() }), fc.record({ text: lineArb })), { maxLength: 12 }),
      fc.boolean(),
      fc.boolean(),
      (lines, h0, t0, middle, finalOld, finalNew) => {
        const na = lines.length;
        const head = Math.min(h0, na);
        const tail = Math.min(t0, na - head);
        const pieces: Piece[] = [];
        for (let i = 0; i < head; i++) pieces.push({ src: i });
        for (const m of middle) pieces.push('src' in m ? { src: m.src % na } : m);
        for (let i = na - tail; i < na; i++) pieces.push({ src: i });
        const after = pieces.map((p) => ('src' in p ? lines[p.src]! : p.text));
        fc.pre(after.length > 0);
        const a = side(lines, finalOld);
        const b = side(after, finalNew);
        assert.deepEqual(pieceDiff('f.txt', a, pieces, b), pieceDiffWhole('f.txt', a, pieces, b));
      },
    ),
    { numRuns: 3000 },
  );
});

test('property: leaving out the long kept runs between changes gives the same diff, byte for byte, as the whole pass', () => {
  const lineArb = fc.constantFrom('a', 'b', 'c', '', '  x', '}');
  const side = (lines: string[], finalNewline: boolean) => ({ lines, finalNewline });
  // runs of kept lines (of lengths around 3 × (context + 1)) between changes: deleted lines, new
  // rows, copies of any line (moved or duplicated)
  const change = fc.record({
    skip: fc.nat({ max: 3 }),
    rows: fc.array(fc.oneof(fc.record({ src: fc.nat() }), fc.record({ text: lineArb })), { maxLength: 4 }),
    keep: fc.nat({ max: 30 }),
  });
  fc.assert(
    fc.property(fc.array(lineArb, { minLength: 1, maxLength: 200 }), fc.nat({ max: 30 }), fc.array(change, { maxLength: 5 }), fc.boolean(), fc.boolean(), (lines, head, changes, finalOld, finalNew) => {
      const na = lines.length;
      const pieces: Piece[] = [];
      let o = 0;
      for (; o < Math.min(head, na); o++) pieces.push({ src: o });
      for (const c of changes) {
        o = Math.min(na, o + c.skip);
        for (const r of c.rows) pieces.push('src' in r ? { src: r.src % na } : r);
        for (const end = Math.min(na, o + c.keep); o < end; o++) pieces.push({ src: o });
      }
      for (; o < na; o++) pieces.push({ src: o });
      const after = pieces.map((p) => ('src' in p ? lines[p.src]! : p.text));
      fc.pre(after.length > 0);
      const a = side(lines, finalOld);
      const b = side(after, finalNew);
      assert.deepEqual(pieceDiff('f.txt', a, pieces, b), pieceDiffWhole('f.txt', a, pieces, b));
    }),
    { numRuns: 3000 },
  );
});

test('pieceDiff: three changes in 2,000 lines, numbered as in the whole file', () => {
  const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const doc = parseDoc(new TextEncoder().encode(text));
  const lines = textLines(text);
  const pieces = applyHunks(lines, resolvePlan(parseEditOps('replace 10:\n+a\nreplace 1000:\n+b\ndelete 1990').ops, { lineCount: lines.length, text }));
  const next = materialize(doc, pieces);
  const a = { lines: doc.lines, finalNewline: true };
  const b = { lines: next.lines, finalNewline: true };
  const r = pieceDiff('f.txt', a, pieces, b);
  assert.equal(r.firstChangedLine, 10);
  assert.equal(r.diff?.match(/^@@ /gm)?.length, 3);
  assert.match(r.diff!, /^@@ -1987,7 \+1987,6 @@\n line 1986\n line 1987\n line 1988\n-line 1989\n line 1990\n/m);
  assert.deepEqual(r, pieceDiffWhole('f.txt', a, pieces, b));
});

test('pieceDiff: one line changed in 2,000 reads the lines around it, numbered as in the whole file', () => {
  const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const doc = parseDoc(new TextEncoder().encode(text));
  const lines = textLines(text);
  const pieces = applyHunks(lines, resolvePlan(parseEditOps('replace 1000:\n+changed').ops, { lineCount: lines.length, text }));
  const next = materialize(doc, pieces);
  const a = { lines: doc.lines, finalNewline: true };
  const b = { lines: next.lines, finalNewline: true };
  const r = pieceDiff('f.txt', a, pieces, b);
  assert.equal(r.diff, '--- f.txt\n+++ f.txt\n@@ -997,7 +997,7 @@\n line 996\n line 997\n line 998\n-line 999\n+changed\n line 1000\n line 1001\n line 1002\n');
  assert.equal(r.firstChangedLine, 1000);
  assert.deepEqual(r, pieceDiffWhole('f.txt', a, pieces, b));
});
