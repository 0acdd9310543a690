// Which line of a text each line of its edited form copies: every line claimed as a copy is
// exactly the line it names (content and terminator), claims rise, lines away from every edit are
// always claimed, and the diff read off the map (core/text/rewrite-diff.ts) is a patch that turns the
// old text into the new.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { composeSources, lineSources, lineStarts } from '../../../src/core/text/line-sources.js';
import { rewriteDiff } from '../../../src/core/text/rewrite-diff.js';
import { lfText, splitLines } from '../../../src/core/text/text-doc.js';
import { applyEdits, type TextEdit } from '../../../src/core/text/text-edits.js';

/** Lines with their terminators, cut as splitLines cuts them. */
function linesOf(text: string): string[] {
  const { lines, endings } = splitLines(text);
  return lines.map((l, i) => l + endings[i]!);
}

test('lineStarts cuts lines where splitLines does (\\r\\n, \\n, lone \\r; no empty last line)', () => {
  assert.deepEqual(lineStarts(''), []);
  assert.deepEqual(lineStarts('a'), [0]);
  assert.deepEqual(lineStarts('a\n'), [0]);
  assert.deepEqual(lineStarts('a\nb'), [0, 2]);
  assert.deepEqual(lineStarts('a\r\nb\rc\n\nd'), [0, 3, 5, 7, 8]);
  assert.deepEqual(lineStarts('\r\n\r\n'), [0, 2]);
});

test('a one-line rewrite in the middle: every other line is a copy', () => {
  const before = 'a\nconsole.log(x);\nb\nc\n';
  const edits: TextEdit[] = [{ start: 2, end: 16, text: 'logger.info(x)' }];
  const after = applyEdits(before, edits);
  assert.deepEqual([...lineSources(before, edits, after)], [0, -1, 2, 3]);
});

test('an edit that adds lines shifts the copies after it; CRLF lines stay copies', () => {
  const before = 'one\r\ntwo\r\nthree\r\nfour\r\n';
  const edits: TextEdit[] = [{ start: 5, end: 8, text: 'two\r\nand a half' }];
  const after = applyEdits(before, edits);
  assert.equal(after, 'one\r\ntwo\r\nand a half\r\nthree\r\nfour\r\n');
  assert.deepEqual([...lineSources(before, edits, after)], [0, -1, -1, 2, 3]);
});

test('a lone \\r before an inserted \\n is not claimed (the two become one terminator)', () => {
  const before = 'a\rb\n';
  const edits: TextEdit[] = [{ start: 2, end: 2, text: '\n' }];
  const after = applyEdits(before, edits);
  assert.deepEqual(linesOf(after), ['a\r\n', 'b\n']);
  assert.deepEqual([...lineSources(before, edits, after)], [-1, -1]);
});

test('composeSources follows a line through two rewrites', () => {
  assert.deepEqual([...composeSources(Int32Array.of(0, -1, 2, 3), Int32Array.of(0, 1, -1, 3))], [0, -1, -1, 3]);
});

const textArb = fc
  .array(fc.tuple(fc.constantFrom('', 'x', 'ab', 'console.log(a)', 'é€', '😀'), fc.constantFrom('\n', '\r\n', '\r', '')), { maxLength: 30 })
  .map((parts) => parts.map(([l, e]) => l + e).join(''));

/** Sorted, non-overlapping edits of `text`, from raw picks. */
function editsOf(text: string, picks: ReadonlyArray<[number, number, string]>): TextEdit[] {
  const cuts = picks.map(([a, b, t]) => {
    const x = text.length === 0 ? 0 : a % (text.length + 1);
    const y = text.length === 0 ? 0 : b % (text.length + 1);
    return { start: Math.min(x, y), end: Math.max(x, y), text: t };
  });
  cuts.sort((p, q) => p.start - q.start || p.end - q.end);
  const out: TextEdit[] = [];
  let pos = -1;
  for (const c of cuts) {
    if (c.start < pos || (c.start === pos && c.start === c.end)) continue;
    out.push(c);
    pos = c.end;
  }
  return out;
}

const pickArb = fc.array(fc.tuple(fc.nat(400), fc.nat(400), fc.constantFrom('', 'y', 'q\n', '\r', '\n', 'm\r\nn', 'z\n\n')), { maxLength: 5 });

/** A random case: the edits made of `picks`, the edited text and its line sources. */
function edited(before: string, picks: ReadonlyArray<[number, number, string]>) {
  const edits = editsOf(before, picks);
  const after = applyEdits(before, edits);
  return { edits, after, map: lineSources(before, edits, after) };
}

test('property: claimed lines are exact copies, rise, and lines away from edits are claimed', () => {
  fc.assert(
    fc.property(textArb, pickArb, (before, picks) => {
      const { edits, after, map } = edited(before, picks);
      const old = linesOf(before);
      const now = linesOf(after);
      assert.equal(map.length, now.length);
      let last = -1;
      map.forEach((src, k) => {
        if (src < 0) return;
        assert.ok(src > last, 'sources rise');
        last = src;
        assert.equal(now[k], old[src]);
      });
      // a line not next to any line an edit touches is always claimed
      const starts = lineStarts(before);
      const lineOf = (o: number) => starts.filter((s) => s <= o).length - 1;
      const near = new Set<number>();
      for (const e of edits) for (let i = lineOf(e.start) - 1; i <= lineOf(e.end) + 1; i++) near.add(i);
      const claimed = new Set(map);
      for (let i = 0; i < old.length; i++) if (!near.has(i)) assert.ok(claimed.has(i), `line ${i} of ${JSON.stringify(before)} is a copy`);
    }),
    { numRuns: 2000 },
  );
});

test('property: the diff read off the map patches the old LF text into the new', () => {
  fc.assert(
    fc.property(textArb, pickArb, (before, picks) => {
      const { after, map } = edited(before, picks);
      const { diff } = rewriteDiff('f', before, after, map);
      if (lfText(before) === lfText(after)) return assert.equal(diff, undefined);
      assert.ok(diff !== undefined);
      assert.equal(applyPatch(lfText(before), diff), lfText(after));
    }),
    { numRuns: 2000 },
  );
});

test('lineStarts gives the same starts for a text asked again and for an equal text made apart, whatever was asked between', () => {
  const a = 'one\ntwo\r\nthree\rfour';
  const b = 'x\n'.repeat(50);
  const fresh = (t: string) => lineStarts(t.slice(0, 1) + t.slice(1));
  const want = [0, 4, 9, 15];
  assert.deepEqual(lineStarts(a), want);
  assert.deepEqual(lineStarts(b).length, 50);
  assert.deepEqual(fresh(a), want);
  for (const t of ['', 'z', 'a\n', '\n\n', b + 'y']) lineStarts(t);
  assert.deepEqual(lineStarts(a), want);
  assert.deepEqual(lineStarts(''), []);
  assert.deepEqual(lineStarts('a\n'), [0]);
  assert.deepEqual(lineStarts('\n\n'), [0, 1]);
});
