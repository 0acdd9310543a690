// The time pieceDiff takes for 1,000 one-line changes on files of 10^4, 10^5 and 10^6 lines, and,
// for comparison on the smaller sizes, jsdiff's generic line diff of the same two texts (what
// pieceDiff replaces). Prints the median of several runs per size. The unit test
// (test/core/edit/piece-diff.test.ts) counts line reads instead of timing.
// Run: npm run bench:piece-diff

import { structuredPatch } from 'diff';
import { applyHunks, materialize, textLines } from '../../src/core/edit/apply.js';
import { parseEditOps } from '../../src/core/edit/parse.js';
import { pieceDiff } from '../../src/core/edit/piece-diff.js';
import { resolvePlan } from '../../src/core/edit/plan.js';
import { docText, parseDoc } from '../../src/core/text/text-doc.js';

const CHANGES = 1000;
const RUNS = 7;
/** jsdiff is timed up to this many lines (beyond, one run takes minutes). */
const JSDIFF_MAX_LINES = 10_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

console.log(`changes=${CHANGES}, median of ${RUNS} runs`);
console.log('lines\tpieceDiff ms\tjsdiff ms');
for (const n of [10_000, 100_000, 1_000_000]) {
  const text = Array.from({ length: n }, (_, i) => `line ${i}`).join('\n') + '\n';
  const step = n / CHANGES;
  const ops = Array.from({ length: CHANGES }, (_, k) => `replace ${k * step + 1}:\n+changed ${k}`).join('\n');
  const doc = parseDoc(new TextEncoder().encode(text));
  const lines = textLines(text);
  const pieces = applyHunks(lines, resolvePlan(parseEditOps(ops).ops, { lineCount: lines.length, text }));
  const next = materialize(doc, pieces);
  const after = docText(next);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    pieceDiff('f.txt', { lines: doc.lines, finalNewline: true }, pieces, { lines: next.lines, finalNewline: true });
    ours.push(performance.now() - t0);
    if (n <= JSDIFF_MAX_LINES && r < 3) {
      t0 = performance.now();
      structuredPatch('f.txt', 'f.txt', text, after, '', '', { context: 3 });
      theirs.push(performance.now() - t0);
    }
  }
  console.log(`${n}\t${median(ours).toFixed(1)}\t${theirs.length ? median(theirs).toFixed(1) : '-'}`);
}
