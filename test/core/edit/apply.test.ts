// Planning and applying edits: each op on a small file, out-of-range and conflicting hunks, block
// ops through an injected resolver, and materializing onto the exact bytes of the file (endings,
// BOM, a missing final newline, bytes that are not UTF-8).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyHunks, materialize, piecesToLines, textLines } from '../../../src/core/edit/apply.js';
import type { BlockResolver } from '../../../src/core/edit/ops.js';
import { parseEditOps } from '../../../src/core/edit/parse.js';
import { resolvePlan } from '../../../src/core/edit/plan.js';
import * as msg from '../../../src/core/messages/edit.js';
import { decodeBytes } from '../../../src/core/text/text-codec.js';
import { docText, parseDoc, serializeDoc } from '../../../src/core/text/text-doc.js';

const FILE = 'l1\nl2\nl3\nl4\nl5\n';

function edit(text: string, ops: string, resolveBlock?: BlockResolver): string {
  const lines = textLines(text);
  const hunks = resolvePlan(parseEditOps(ops).ops, { lineCount: lines.length, text, resolveBlock });
  const out = piecesToLines(lines, applyHunks(lines, hunks));
  return out.length === 0 ? '' : out.join('\n') + '\n';
}

const CASES: Array<[string, string, string]> = [
  ['replace one line', 'replace 2:\n+B', 'l1\nB\nl3\nl4\nl5\n'],
  ['replace a range by more lines', 'replace 2..3:\n+a\n+b\n+c', 'l1\na\nb\nc\nl4\nl5\n'],
  ['replace a range by fewer lines', 'replace 2..4:\n+x', 'l1\nx\nl5\n'],
  ['delete one', 'delete 1', 'l2\nl3\nl4\nl5\n'],
  ['delete a range', 'delete 2..4', 'l1\nl5\n'],
  ['delete everything', 'delete 1..5', ''],
  ['insert before', 'insert before 1:\n+x', 'x\nl1\nl2\nl3\nl4\nl5\n'],
  ['insert after', 'insert after 5:\n+x', 'l1\nl2\nl3\nl4\nl5\nx\n'],
  ['insert head', 'insert head:\n+h1\n+h2', 'h1\nh2\nl1\nl2\nl3\nl4\nl5\n'],
  ['insert tail', 'insert tail:\n+t', 'l1\nl2\nl3\nl4\nl5\nt\n'],
  ['numbers refer to the file as read (hunks do not shift each other)', 'delete 1\nreplace 3:\n+C\ninsert after 5:\n+z', 'l2\nC\nl4\nl5\nz\n'],
  ['order within an anchor: before, line, after', 'insert after 2:\n+after\ninsert before 2:\n+before', 'l1\nbefore\nl2\nafter\nl3\nl4\nl5\n'],
  ['after N and before N+1 both land between them', 'insert before 3:\n+b3\ninsert after 2:\n+a2', 'l1\nl2\na2\nb3\nl3\nl4\nl5\n'],
  ['adjacent ranges', 'replace 1..2:\n+A\nreplace 3..4:\n+B', 'A\nB\nl5\n'],
  ['head, tail and inserts at the edges', 'insert tail:\n+t\ninsert head:\n+h\ninsert before 1:\n+b\ninsert after 5:\n+a', 'h\nb\nl1\nl2\nl3\nl4\nl5\na\nt\n'],
  ['`$&` and `$1` stay literal', 'replace 1:\n+a $& b $1 $$', 'a $& b $1 $$\nl2\nl3\nl4\nl5\n'],
];

for (const [name, ops, expected] of CASES) {
  test(`apply: ${name}`, () => assert.equal(edit(FILE, ops), expected));
}

test('apply: block ops expand through the resolver, against the text they are given', () => {
  const seen: Array<[string, number]> = [];
  const resolver: BlockResolver = (text, line) => {
    seen.push([text, line]);
    return line === 2 ? { start: 2, end: 4 } : null;
  };
  assert.equal(edit(FILE, 'replace block 2:\n+fn()', resolver), 'l1\nfn()\nl5\n');
  assert.equal(edit(FILE, 'delete block 2', resolver), 'l1\nl5\n');
  assert.deepEqual(seen, [[FILE, 2], [FILE, 2]]);
  assert.throws(() => edit(FILE, 'replace block 3:\n+x', resolver), (e: Error & { code?: string }) => {
    assert.equal(e.code, 'edit_parse_error');
    assert.equal(e.message, `line 1: ${msg.blockUnresolved('replace', 3)}`);
    return true;
  });
  assert.throws(() => edit(FILE, 'delete 1\ndelete block 3', resolver), { message: `line 2: ${msg.blockUnresolved('delete', 3)}` });
  assert.throws(() => edit(FILE, 'delete block 2'), { message: `line 1: ${msg.blockUnresolved('delete', 2)}` });
  // a block that overlaps another hunk is refused like any range
  assert.throws(() => edit(FILE, 'delete block 2\ninsert after 3:\n+x', resolver), (e: Error & { code?: string }) => e.code === 'edit_overlap');
});

const RANGE_ERRORS: Array<[string, string, string, string]> = [
  ['replace past the end', 'replace 7:\n+x', 'edit_out_of_range', msg.lineDoesNotExist(7, 5)],
  ['range end past the end', 'replace 4..9:\n+x', 'edit_out_of_range', msg.lineDoesNotExist(9, 5)],
  ['delete past the end', 'delete 7', 'edit_out_of_range', msg.lineDoesNotExist(7, 5)],
  ['insert after past the end', 'insert after 7:\n+x', 'edit_out_of_range', msg.lineDoesNotExist(7, 5)],
  ['block past the end', 'delete block 8', 'edit_out_of_range', msg.lineDoesNotExist(8, 5)],
  ['overlapping ranges', 'replace 1..3:\n+a\ndelete 3..4', 'edit_overlap', `line 3: ${msg.anchorConflict(3, 1)}`],
  ['same line twice', 'delete 2\nreplace 2:\n+x', 'edit_overlap', `line 2: ${msg.anchorConflict(2, 1)}`],
  ['insert inside a replaced range', 'replace 2..4:\n+a\ninsert after 3:\n+x', 'edit_overlap', `line 3: ${msg.anchorConflict(3, 1)}`],
  ['insert next to a replaced line', 'insert before 2:\n+x\ndelete 2', 'edit_overlap', `line 3: ${msg.anchorConflict(2, 1)}`],
  ['two inserts after one line', 'insert after 2:\n+x\ninsert after 2:\n+y', 'edit_overlap', `line 3: ${msg.anchorConflict(2, 1)}`],
  ['two head inserts', 'insert head:\n+x\ninsert head:\n+y', 'edit_overlap', `line 3: ${msg.boundaryConflict('head', 1)}`],
];

for (const [name, ops, code, message] of RANGE_ERRORS) {
  test(`plan error: ${name}`, () => {
    assert.throws(() => edit(FILE, ops), (e: Error & { code?: string }) => {
      assert.equal(e.code, code);
      assert.equal(e.message, message);
      return true;
    });
  });
}

test('plan: the spec wording of an out-of-range anchor', () => {
  assert.equal(msg.lineDoesNotExist(12, 10), 'Line 12 does not exist (file has 10 lines)');
  assert.throws(() => edit('', 'insert after 2:\n+x'), { message: 'Line 2 does not exist (file has 0 lines)' });
  assert.equal(edit('', 'insert head:\n+x'), 'x\n');
});

// A whole read shows an empty line after a final newline (`6| ` here, `1| ` for an empty file): it can
// be addressed. Deleting it changes nothing; replacing it or inserting next to it appends.
const PHANTOM: Array<[string, string, string, string]> = [
  ['delete the phantom line', FILE, 'delete 6', FILE],
  ['delete a range ending on it', FILE, 'delete 5..6', 'l1\nl2\nl3\nl4\n'],
  ['replace a range ending on it', FILE, 'replace 5..6:\n+x', 'l1\nl2\nl3\nl4\nx\n'],
  ['replace the phantom line', FILE, 'replace 6:\n+x', FILE + 'x\n'],
  ['insert before it', FILE, 'insert before 6:\n+x', FILE + 'x\n'],
  ['insert after it', FILE, 'insert after 6:\n+x', FILE + 'x\n'],
  ['delete line 1 of an empty file', '', 'delete 1', ''],
  ['insert after line 1 of an empty file', '', 'insert after 1:\n+x', 'x\n'],
  ['delete 3 on one\\ntwo\\n', 'one\ntwo\n', 'delete 3', 'one\ntwo\n'],
];

for (const [name, text, ops, expected] of PHANTOM) {
  test(`phantom last line: ${name}`, () => assert.equal(edit(text, ops), expected));
}

test('phantom last line: absent without a final newline, and one line past it is still out of range', () => {
  assert.throws(() => edit('one\ntwo', 'delete 3'), { message: msg.lineDoesNotExist(3, 2) });
  assert.throws(() => edit('one\ntwo\n', 'delete 4'), { message: msg.lineDoesNotExist(4, 2) });
  assert.throws(() => edit('one\ntwo\n', 'delete 3..4'), { message: msg.lineDoesNotExist(4, 2) });
});

function editBytes(bytes: Uint8Array, ops: string): Uint8Array {
  const doc = parseDoc(bytes);
  const text = docText(doc);
  const hunks = resolvePlan(parseEditOps(ops).ops, { lineCount: doc.lines.length, text });
  return serializeDoc(materialize(doc, applyHunks(doc.lines, hunks)));
}

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => Buffer.from(b).toString('latin1');

test('materialize: CRLF stays CRLF, new lines get the file ending', () => {
  assert.equal(dec(editBytes(enc('a\r\nb\r\nc\r\n'), 'replace 2:\n+B\n+B2')), 'a\r\nB\r\nB2\r\nc\r\n');
});

test('materialize: mixed endings, each kept line keeps its own', () => {
  assert.equal(dec(editBytes(enc('a\r\nb\nc\rd\n'), 'insert after 2:\n+x')), 'a\r\nb\nx\r\nc\rd\n');
  assert.equal(dec(editBytes(enc('a\nb\r\nc\r\n'), 'delete 1')), 'b\r\nc\r\n');
});

test('materialize: BOM kept', () => {
  const out = editBytes(Uint8Array.from([0xef, 0xbb, 0xbf, ...enc('a\nb\n')]), 'replace 1:\n+A');
  assert.deepEqual([...out.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(new TextDecoder().decode(out.subarray(3)), 'A\nb\n');
});

test('materialize: a file without a final newline keeps having none', () => {
  assert.equal(dec(editBytes(enc('a\nb'), 'replace 2:\n+B')), 'a\nB');
  assert.equal(dec(editBytes(enc('a\nb'), 'insert tail:\n+c')), 'a\nb\nc');
  assert.equal(dec(editBytes(enc('a\nb'), 'insert after 2:\n+c\n+d')), 'a\nb\nc\nd');
  assert.equal(dec(editBytes(enc('a\nb'), 'delete 2')), 'a');
  assert.equal(dec(editBytes(enc('a\nb\n'), 'insert tail:\n+c')), 'a\nb\nc\n');
  assert.equal(dec(editBytes(enc('a\r\nb'), 'insert tail:\n+c')), 'a\r\nb\r\nc');
});

test('non-UTF-8 bytes: untouched lines are written back byte-exact; replacing such a line is refused', () => {
  const bytes = Uint8Array.from([...enc('caf'), 0xe9, ...enc('\nmid\n'), 0x99, 0xff, ...enc(' tm\nend\n')]);
  assert.equal(decodeBytes(bytes).utf8, false);
  const out = editBytes(bytes, 'replace 2:\n+MID\ninsert tail:\n+Ω');
  assert.deepEqual([...out], [...enc('caf'), 0xe9, ...enc('\nMID\n'), 0x99, 0xff, ...enc(' tm\nend\nΩ\n')]);
  for (const ops of ['replace 1:\n+cafe', 'delete 3', 'replace 2..4:\n+x']) {
    assert.throws(() => editBytes(bytes, ops), (e: Error & { code?: string; details?: { line?: number } }) => {
      assert.equal(e.code, 'non_utf8_line');
      assert.equal(e.message, msg.nonUtf8Line(e.details!.line!));
      return true;
    });
  }
});
