// The diff of a whole-text rewrite: read off the line sources it is the text a generic line diff
// gives on a typical rewrite (and the same when no sources fit), on LF text for a CRLF file.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { pieceDiffWhole } from '../../../src/core/edit/piece-diff.js';
import { lineSources } from '../../../src/core/text/line-sources.js';
import { rewriteDiff } from '../../../src/core/text/rewrite-diff.js';
import { lfText, splitLines } from '../../../src/core/text/text-doc.js';
import { applyEdits, type TextEdit } from '../../../src/core/text/text-edits.js';
import { firstChangedLine, unifiedDiff } from '../../../src/core/text/unified-diff.js';

/** rewriteDiff as it was before the shared ends were left out: both texts split whole, one pass. */
function wholeRewriteDiff(label: string, before: string, after: string, sources?: Int32Array) {
  const a = splitLines(before);
  const b = splitLines(after);
  if (sources === undefined || sources.length !== b.lines.length) {
    const x = lfText(before);
    const y = lfText(after);
    return { diff: unifiedDiff(label, x, y), firstChangedLine: firstChangedLine(x, y) };
  }
  const pieces = Array.from(sources, (src, k) => (src >= 0 ? { src } : { text: b.lines[k]! }));
  const side = (s: { lines: string[]; endings: string[] }) => ({ lines: s.lines, finalNewline: (s.endings[s.endings.length - 1] ?? '') !== '' });
  return pieceDiffWhole(label, side(a), pieces, side(b));
}

test('on a typical rewrite the diff is the text a generic line diff gives', () => {
  const before = Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? `  console.log(v${i});` : `  line ${i};`)).join('\n') + '\n';
  const edits: TextEdit[] = [];
  for (let at = before.indexOf('console.log'); at !== -1; at = before.indexOf('console.log', at + 1)) edits.push({ start: at, end: at + 'console.log'.length, text: 'logger.info' });
  const after = applyEdits(before, edits);
  const read = rewriteDiff('f.ts', before, after, lineSources(before, edits, after));
  assert.equal(read.diff, unifiedDiff('f.ts', before, after));
  assert.equal(read.firstChangedLine, 4);
  // without sources that fit, the same diff from a generic line diff
  assert.deepEqual(rewriteDiff('f.ts', before, after, Int32Array.of(0)), read);
  assert.deepEqual(rewriteDiff('f.ts', before, after), read);
});

test('a rewrite of a CRLF text is diffed on its LF text', () => {
  const before = 'a\r\nconsole.log(1);\r\nb\r\n';
  const edits: TextEdit[] = [{ start: 3, end: 14, text: 'logger.info' }];
  const after = applyEdits(before, edits);
  const { diff, firstChangedLine } = rewriteDiff('w.ts', before, after, lineSources(before, edits, after));
  assert.equal(diff, '--- w.ts\n+++ w.ts\n@@ -1,3 +1,3 @@\n a\n-console.log(1);\n+logger.info(1);\n b\n');
  assert.equal(firstChangedLine, 2);
});

test('property: the diff of a rewrite is the same text, byte for byte, as splitting both texts whole gave (any line endings, sources that fit or not)', () => {
  const lineArb = fc.constantFrom('a', 'b', 'c', '', '  x', '}', 'é');
  const endArb = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r');
  fc.assert(
    fc.property(
      fc.array(fc.tuple(lineArb, endArb), { minLength: 1, maxLength: 60 }),
      fc.boolean(),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), fc.constantFrom('', 'q', 'zz\n', '\r\nw', 'a\n', '\n')), { maxLength: 4 }),
      fc.nat({ max: 3 }),
      (rows, finalEnd, raw, mangle) => {
        const before = rows.map(([l, e], i) => (i < rows.length - 1 || finalEnd ? l + e : l)).join('');
        const edits: TextEdit[] = [];
        let last = -1;
        for (const [at, len, text] of [...raw].sort((x, y) => (x[0] % before.length) - (y[0] % before.length))) {
          const start = at % before.length;
          if (start <= last) continue;
          const end = Math.min(before.length, start + len);
          edits.push({ start, end, text });
          last = end;
        }
        const after = applyEdits(before, edits);
        let sources: Int32Array | undefined = lineSources(before, edits, after);
        // sources that do not fit, or claim copies out of place, must still give the same text
        if (mangle === 1) sources = sources.subarray(0, Math.max(0, sources.length - 1));
        if (mangle === 2 && sources.length > 0) sources = Int32Array.from(sources, (s, k) => (k === sources!.length >> 1 ? 0 : s));
        if (mangle === 3) sources = undefined;
        assert.deepEqual(rewriteDiff('f.txt', before, after, sources), wholeRewriteDiff('f.txt', before, after, sources));
      },
    ),
    { numRuns: 3000 },
  );
});

test('a one-line rewrite in a long file: the same diff as splitting both texts whole', () => {
  const before = Array.from({ length: 2000 }, (_, i) => `  const v${i} = ${i};`).join('\n') + '\n';
  const at = before.indexOf('v1000 =');
  const edits: TextEdit[] = [{ start: at, end: at + 5, text: 'w1000' }];
  const after = applyEdits(before, edits);
  const sources = lineSources(before, edits, after);
  const r = rewriteDiff('f.ts', before, after, sources);
  assert.equal(r.diff, '--- f.ts\n+++ f.ts\n@@ -998,7 +998,7 @@\n   const v997 = 997;\n   const v998 = 998;\n   const v999 = 999;\n-  const v1000 = 1000;\n+  const w1000 = 1000;\n   const v1001 = 1001;\n   const v1002 = 1002;\n   const v1003 = 1003;\n');
  assert.equal(r.firstChangedLine, 1001);
  assert.deepEqual(r, wholeRewriteDiff('f.ts', before, after, sources));
  // the same at the file's ends and without a final newline
  for (const text of [before.slice(0, -1), 'x\n' + before, before + 'tail']) {
    const e: TextEdit[] = [{ start: 0, end: 1, text: 'Y' }, { start: text.length - 1, end: text.length, text: 'Z' }];
    const t = applyEdits(text, e);
    assert.deepEqual(rewriteDiff('f.ts', text, t, lineSources(text, e, t)), wholeRewriteDiff('f.ts', text, t, lineSources(text, e, t)));
  }
});
