// The range rule of GET /v1/fs/file, row by row (spec/http.md), and the slicer against a model
// under arbitrary chunking.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineSlicer, lineWindow, sliceLines } from '../../../src/core/read/line-window.js';
import { BOUNDS_NOT_INTEGERS, endBeforeStart, PATH_REQUIRED, START_LINE_ZERO } from '../../../src/core/messages/http.js';

const ROWS: Array<[string, Parameters<typeof lineWindow>[0], { start: number; end: number | undefined } | null | string]> = [
  ['no bounds: un-sliced', { path: 'a' }, null],
  ['start only', { path: 'a', start_line: '3' }, { start: 3, end: undefined }],
  ['end only: start defaults to 1', { path: 'a', end_line: '4' }, { start: 1, end: 4 }],
  ['both', { path: 'a', start_line: '2', end_line: '5' }, { start: 2, end: 5 }],
  ['single line', { path: 'a', start_line: '7', end_line: '7' }, { start: 7, end: 7 }],
  ['numbers (client)', { path: 'a', start_line: 2, end_line: 3 }, { start: 2, end: 3 }],
  ['leading zeros', { path: 'a', start_line: '002' }, { start: 2, end: undefined }],
  ['start 0', { path: 'a', start_line: '0' }, START_LINE_ZERO],
  ['start 0 with end', { path: 'a', start_line: '0', end_line: '5' }, START_LINE_ZERO],
  ['start 0 (number)', { path: 'a', start_line: 0 }, START_LINE_ZERO],
  ['end before start', { path: 'a', start_line: '5', end_line: '3' }, endBeforeStart(3, 5)],
  ['end 0 with default start', { path: 'a', end_line: '0' }, endBeforeStart(0, 1)],
  ['non-integer start', { path: 'a', start_line: '1.5' }, BOUNDS_NOT_INTEGERS],
  ['non-integer end', { path: 'a', end_line: 'x' }, BOUNDS_NOT_INTEGERS],
  ['negative', { path: 'a', start_line: '-1' }, BOUNDS_NOT_INTEGERS],
  ['empty value', { path: 'a', start_line: '' }, BOUNDS_NOT_INTEGERS],
  ['fraction (number)', { path: 'a', end_line: 2.5 }, BOUNDS_NOT_INTEGERS],
  ['NaN (number)', { path: 'a', start_line: Number.NaN }, BOUNDS_NOT_INTEGERS],
  ['above u64', { path: 'a', end_line: '18446744073709551616' }, BOUNDS_NOT_INTEGERS],
  ['u64 max is fine', { path: 'a', end_line: '18446744073709551615' }, { start: 1, end: Number.MAX_SAFE_INTEGER }],
  ['missing path', {}, PATH_REQUIRED],
  ['missing path beats a bad bound', { start_line: 'x' }, PATH_REQUIRED],
  ['a bad bound beats start 0', { path: 'a', start_line: '0', end_line: 'x' }, BOUNDS_NOT_INTEGERS],
];

for (const [name, query, expected] of ROWS) {
  test(`lineWindow: ${name}`, () => {
    const r = lineWindow(query);
    if (typeof expected === 'string') assert.deepEqual(r, { ok: false, message: expected });
    else assert.deepEqual(r, { ok: true, window: expected });
  });
}

test('the end-before-start message names both bounds', () => {
  assert.match(endBeforeStart(3, 5), /^end_line 3 is before start_line 5\. Both bounds are 1-based and inclusive/);
});

const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);

test('slicing: a line owns its \\n; past EOF is empty or through EOF', () => {
  const doc = text('a\nb\nc');
  assert.equal(str(sliceLines(doc, { start: 1, end: 1 })), 'a\n');
  assert.equal(str(sliceLines(doc, { start: 2, end: 3 })), 'b\nc');
  assert.equal(str(sliceLines(doc, { start: 3, end: undefined })), 'c');
  assert.equal(str(sliceLines(doc, { start: 4, end: undefined })), '');
  assert.equal(str(sliceLines(doc, { start: 2, end: 1000 })), 'b\nc');
  assert.equal(str(sliceLines(text('a\nb\n'), { start: 3, end: undefined })), '');
  assert.equal(str(sliceLines(text('\n\n'), { start: 2, end: 2 })), '\n');
  assert.equal(sliceLines(doc, null), doc);
});

function model(s: string, start: number, end: number | undefined): string {
  const lines = s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  return lines.slice(start - 1, end === undefined ? undefined : end).join('');
}

test('slicer under any chunking matches the model, and is done once the window closes', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'b', '\n', 'é') }),
      fc.integer({ min: 1, max: 12 }),
      fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
      fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
      (s, start, extra, cuts) => {
        const end = extra === undefined ? undefined : start + extra;
        const bytes = text(s);
        const slicer = new LineSlicer({ start, end });
        const out: number[] = [];
        let pos = 0;
        let i = 0;
        while (pos < bytes.length && !slicer.done) {
          const n = cuts[i++ % cuts.length]!;
          out.push(...slicer.push(bytes.subarray(pos, pos + n)));
          pos += n;
        }
        assert.equal(str(Uint8Array.from(out)), model(s, start, end));
        if (slicer.done) assert.equal(out.at(-1), 10);
      },
    ),
    { numRuns: 500 },
  );
});
