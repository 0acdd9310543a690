// The diff of a whole-text rewrite: read off the line sources it is the text a generic line diff
// gives on a typical rewrite (and the same when no sources fit), on LF text for a CRLF file.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineSources } from '../../../src/core/text/line-sources.js';
import { rewriteDiff } from '../../../src/core/text/rewrite-diff.js';
import { applyEdits, type TextEdit } from '../../../src/core/text/text-edits.js';
import { unifiedDiff } from '../../../src/core/text/unified-diff.js';

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
