// The numbered body of reads and every notice and warning string, pinned exactly.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as msg from '../../../src/core/messages/read.js';
import { assembleContent, renderBlock, renderRanges, renderWhole, truncateColumn, type LineSource } from '../../../src/core/read/read-render.js';
import { jsonEscapedBytes, ReplyBudget } from '../../../src/core/read/reply-budget.js';

function source(lines: string[]): LineSource {
  return { total: lines.length, line: (n) => lines[n - 1]! };
}
const numberedLines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);
const big = () => new ReplyBudget();

test('wire strings', () => {
  const table: Array<[string, string]> = [
    [msg.rangeBeyondEof(50, 60, 12), '[Range 50-60 is beyond end of file (12 lines total); skipped]'],
    [msg.rangesGap(4), '[…4 lines between ranges elided]'],
    [msg.moreLines(78, 31, 108), '[78 more lines in file; continue with line_range "31-108"]'],
    [msg.elided(31, 108), '[…78 lines elided; re-read with line_range "31-108"]'],
    [msg.TRUNCATED_NOTICE, '[Some lines were truncated to 200 columns; use line_range to re-read specific lines for the full content]'],
    [msg.lineRangeFormat('x'), 'line_range must be "start-end" (1-based, inclusive), got: x'],
    [msg.lineRangeOrder('5-3'), 'line_range must satisfy 1 <= start <= end, got: 5-3'],
    [msg.noGrammar('a.xyz'), 'no tree-sitter grammar available for `a.xyz`; use `line` targeting or read the whole file instead'],
    [
      msg.blockNotResolved(7, 'src/a.rs'),
      'could not resolve a syntactic block starting at line 7 in `src/a.rs`. Possible causes: the line does not begin a valid block (e.g. fn, struct, impl, enum, trait, mod), the line number exceeds the file length, or the line falls inside a string or comment. Try a different line number, a `line_range`, or read the whole file instead.',
    ],
    [
      msg.symbolNotFound('Foo', 'src'),
      'symbol `Foo` not found in `src`. Verify the symbol name is spelled exactly as defined in source code. If `src` is a directory, it may contain no files with a supported tree-sitter grammar. Try using `line` targeting to read specific sections, or read the whole file to inspect its contents.',
    ],
    [
      msg.directoryWithoutSymbol('src'),
      'cannot read directory `src` without a `symbol` filter. When `path` is a directory, a `symbol` (e.g., a function or struct name) must be provided so the tool searches for matching definitions across all supported source files in that tree. To read entire files, list each file path explicitly in the `targets` array with no `line` or `symbol` fields.',
    ],
    [msg.outputCapped(4194304, 10, 20), '[Output stopped at the 4194304-byte reply limit; continue with line_range "10-20"]'],
    [msg.lineCapped(3, 100), '[Line 3 was cut after 100 characters at the reply limit; it is too long to show whole. file_read reads it in parts: lines [2, 3], then byteOffset as its note says]'],
    [msg.replyBudgetExhausted('a.txt'), 'not read: the reply already holds the most text one call returns; read `a.txt` in a separate call'],
  ];
  for (const [got, want] of table) assert.equal(got, want);
  assert.match(msg.notUtf8('a.txt'), /^`a\.txt` is not valid UTF-8: /);
});

test('whole file: a trailing newline gives a final empty numbered line', () => {
  const r = renderWhole(source(['a', 'b']), true, big());
  assert.equal(assembleContent('¶f#0000', r), '¶f#0000\n1| a\n2| b\n3| ');
  assert.deepEqual(r.seen, [1, 2]);
  const noNl = renderWhole(source(['a', 'b']), false, big());
  assert.equal(assembleContent('H', noNl), 'H\n1| a\n2| b');
  const empty = renderWhole(source([]), true, big());
  assert.equal(assembleContent('H', empty), 'H\n1| ');
});

test('whole file: long lines are not cut', () => {
  const long = 'x'.repeat(500);
  const r = renderWhole(source([long]), false, big());
  assert.equal(r.body[0], `1| ${long}`);
  assert.deepEqual(r.notices, []);
});

test('ranges: gap line, beyond-EOF warning, footer', () => {
  const src = source(numberedLines(20));
  const r = renderRanges(src, [{ start: 2, end: 3 }, { start: 6, end: 7 }, { start: 30, end: 40 }], big());
  assert.deepEqual(r.body, ['2| line 2', '3| line 3', '[…2 lines between ranges elided]', '6| line 6', '7| line 7']);
  assert.deepEqual(r.warnings, ['[Range 30-40 is beyond end of file (20 lines total); skipped]']);
  assert.deepEqual(r.notices, ['[13 more lines in file; continue with line_range "8-20"]']);
  assert.deepEqual(r.seen, [2, 3, 6, 7]);
});

test('ranges: end clamped to EOF, no footer at the end, adjacent ranges have no gap line', () => {
  const src = source(numberedLines(5));
  const r = renderRanges(src, [{ start: 1, end: 2 }, { start: 3, end: 99 }], big());
  assert.deepEqual(r.body, ['1| line 1', '2| line 2', '3| line 3', '4| line 4', '5| line 5']);
  assert.deepEqual(r.notices, []);
});

test('ranges: 200-column truncation keeps 197 characters plus ... and notices', () => {
  const long = 'é'.repeat(250);
  const r = renderRanges(source(['short', long, 'x']), [{ start: 1, end: 2 }], big());
  assert.equal(r.body[1], `2| ${'é'.repeat(197)}...`);
  assert.deepEqual(r.notices, [msg.TRUNCATED_NOTICE, '[1 more lines in file; continue with line_range "3-3"]']);
  // a single requested line is shown whole
  const one = renderRanges(source(['short', long, 'x']), [{ start: 2, end: 2 }], big());
  assert.equal(one.body[0], `2| ${long}`);
});

test('truncateColumn counts code points, not UTF-16 units', () => {
  assert.deepEqual(truncateColumn('a'.repeat(200)), { text: 'a'.repeat(200), truncated: false });
  assert.equal(truncateColumn('a'.repeat(201)).text, `${'a'.repeat(197)}...`);
  const emoji = '😀'.repeat(200); // 400 UTF-16 units, 200 code points
  assert.deepEqual(truncateColumn(emoji), { text: emoji, truncated: false });
  assert.equal(truncateColumn('😀'.repeat(201)).text, `${'😀'.repeat(197)}...`);
});

test('blocks: up to 24 lines whole; above, 3 head, …, 2 tail and the elision notice', () => {
  const src = source(numberedLines(200));
  const small = renderBlock(src, { start: 10, end: 33 }, big());
  assert.equal(small.body.length, 24);
  assert.deepEqual(small.notices, []);
  const r = renderBlock(src, { start: 28, end: 110 }, big());
  assert.deepEqual(r.body, ['28| line 28', '29| line 29', '30| line 30', '…', '109| line 109', '110| line 110']);
  assert.deepEqual(r.notices, ['[…78 lines elided; re-read with line_range "31-108"]']);
  assert.deepEqual(r.seen, [28, 29, 30, 109, 110]);
});

test('blocks, full: shown whole at any length, long lines still cut, the reply budget still stops them', () => {
  const src = source(numberedLines(200));
  const r = renderBlock(src, { start: 28, end: 110 }, big(), true);
  assert.equal(r.body.length, 83);
  assert.equal(r.body[82], '110| line 110');
  assert.deepEqual(r.notices, []);
  assert.equal(r.seen.length, 83);
  const lines = numberedLines(30);
  lines[4] = 'y'.repeat(300);
  assert.deepEqual(renderBlock(source(lines), { start: 1, end: 30 }, big(), true).notices, [msg.TRUNCATED_NOTICE]);
  const capped = renderBlock(source(numberedLines(1000)), { start: 1, end: 900 }, new ReplyBudget(2000), true);
  const next = capped.body.length + 1;
  assert.ok(capped.body.length > 10 && capped.body.length < 900);
  assert.deepEqual(capped.notices, [`[Output stopped at the 2000-byte reply limit; continue with line_range "${next}-900"]`]);
});

test('blocks: elision notice before the truncation notice', () => {
  const lines = numberedLines(30);
  lines[0] = 'y'.repeat(300);
  const r = renderBlock(source(lines), { start: 1, end: 30 }, big());
  assert.deepEqual(r.notices, ['[…25 lines elided; re-read with line_range "4-28"]', msg.TRUNCATED_NOTICE]);
});

test('non-UTF-8 bytes are shown as U+FFFD', () => {
  const r = renderWhole(source(['a\uDCFFb']), false, big());
  assert.equal(r.body[0], '1| a\uFFFDb');
});

test('the reply budget stops a read with a how-to-continue notice', () => {
  const budget = new ReplyBudget(2000);
  const r = renderWhole(source(numberedLines(1000)), true, budget);
  assert.ok(r.body.length > 10 && r.body.length < 1000);
  const next = r.body.length + 1;
  assert.deepEqual(r.notices, [`[Output stopped at the 2000-byte reply limit; continue with line_range "${next}-1000"]`]);
  assert.equal(r.seen.length, r.body.length);
  // a line larger than the whole budget is cut, never dropped
  const huge = renderWhole(source(['z'.repeat(10_000), 'b']), false, new ReplyBudget(2000));
  assert.equal(huge.body.length, 1);
  assert.ok(huge.body[0]!.startsWith('1| zzz'));
  assert.match(huge.notices[0]!, /^\[Line 1 was cut after \d+ characters/);
  assert.equal(huge.notices[1], '[Output stopped at the 2000-byte reply limit; continue with line_range "2-2"]');
});

test('a whole body of many groups gives the content and reply cost of one joined body', () => {
  // escapes and non-ASCII in the lines; well over one 32 Ki-unit group
  const lines = Array.from({ length: 6000 }, (_, i) => `const s${i} = "q\\\\${'é'.repeat(i % 5)}\t";`);
  for (const trailing of [true, false]) {
    const budget = big();
    const before = budget.remaining;
    const r = renderWhole(source(lines), trailing, budget);
    assert.ok((r.pieces?.length ?? 0) > 3);
    const joined = r.body.join('\n');
    assert.equal(assembleContent('H', r), `H\n${joined}`);
    assert.equal(before - budget.remaining, 2 * (jsonEscapedBytes(joined) + 2 * r.body.length));
  }
  // the content of a body built line by line (no groups) is unchanged, an empty one included
  assert.equal(assembleContent('H', { body: [], seen: [], notices: [], warnings: [] }), 'H\n');
  assert.equal(assembleContent('H', { body: ['1| a'], seen: [1], notices: ['[n]'], warnings: [] }), 'H\n1| a\n[n]');
});
