// The journal of a session's own edits: the chain from a text read to the live text, newest
// edits first; broken by a text the session did not write; kept apart per session and file; bounded.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { EditJournal, JOURNAL_EDITS, textDigest } from '../../../src/core/merge/edit-journal.js';
import type { EditShape } from '../../../src/core/merge/edit-shape.js';

const shape = (from: number, to: number): EditShape => ({ from, to, spans: [] });

test("the chain of a session's own edits from a text to another", () => {
  const j = new EditJournal();
  const s1 = shape(1, 2);
  const s2 = shape(2, 3);
  j.record('S', '/f', 'A', 'B', s1);
  j.record('S', '/f', 'B', 'C', s2);
  assert.deepEqual(j.chain('S', '/f', 'A', 'C'), [s1, s2]);
  assert.deepEqual(j.chain('S', '/f', 'B', 'C'), [s2]);
  assert.deepEqual(j.chain('S', '/f', 'A', 'B'), [s1]);
  // no chain: the same text, a text never written, another session, another file, backwards
  assert.equal(j.chain('S', '/f', 'C', 'C'), null);
  assert.equal(j.chain('S', '/f', 'A', 'X'), null);
  assert.equal(j.chain('T', '/f', 'A', 'C'), null);
  assert.equal(j.chain('S', '/g', 'A', 'C'), null);
  assert.equal(j.chain('S', '/f', 'C', 'A'), null);
});

test('a text written by someone else breaks the chain', () => {
  const j = new EditJournal();
  j.record('S', '/f', 'A', 'B', shape(1, 1));
  // the file became C elsewhere, the session read it and edited C into D
  j.record('S', '/f', 'C', 'D', shape(1, 1));
  assert.equal(j.chain('S', '/f', 'A', 'D'), null);
  assert.ok(j.chain('S', '/f', 'C', 'D'));
});

test('the newest edit that wrote a text is the one followed', () => {
  const j = new EditJournal();
  const old = shape(1, 1);
  const newer = shape(1, 1);
  j.record('S', '/f', 'A', 'B', old);
  j.record('S', '/f', 'B', 'A', shape(1, 1));
  j.record('S', '/f', 'A', 'B', newer);
  assert.equal(j.chain('S', '/f', 'A', 'B')![0], newer);
});

test('texts are told apart by every UTF-16 unit (escaped bytes included)', () => {
  const j = new EditJournal();
  j.record('S', '/f', 'x\uDC99\n', 'B', shape(1, 1));
  assert.equal(j.chain('S', '/f', 'x\uDC92\n', 'B'), null);
  assert.ok(j.chain('S', '/f', 'x\uDC99\n', 'B'));
});

test('only the last edits of a file are kept', () => {
  const j = new EditJournal();
  for (let k = 0; k <= JOURNAL_EDITS; k++) j.record('S', '/f', `t${k}`, `t${k + 1}`, shape(1, 1));
  assert.equal(j.chain('S', '/f', 't0', `t${JOURNAL_EDITS + 1}`), null);
  assert.equal(j.chain('S', '/f', 't1', `t${JOURNAL_EDITS + 1}`)!.length, JOURNAL_EDITS);
});

test('textDigest: an ASCII text is the SHA-256 of its bytes, a byte-wide one of a kind and its bytes, another of a kind and its UTF-16 fed in slices (a pair or an escape across a slice edge too)', () => {
  const hex = (...parts: Array<Uint8Array | string>) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  };
  const units16 = (t: string) => Buffer.from(t, 'utf16le');
  const bytes8 = (t: string) => Buffer.from(Array.from(t, (c) => c.charCodeAt(0)));
  const expected = (t: string) =>
    /^[\u0000-\u007f]*$/.test(t) ? hex(bytes8(t)) : /^[\u0000-\u00ff]*$/.test(t) ? hex(Uint8Array.of(0xff, 0x4c), bytes8(t)) : hex(Uint8Array.of(0xff, 0x55), units16(t));
  const edge = 16 * 1024;
  const texts = [
    '',
    'short',
    'caf\u00e9 \u00ff\u0000',
    'x'.repeat(edge),
    'x'.repeat(edge + 1),
    // a surrogate pair split by the slice edge, an escaped byte and a lone surrogate beside it
    'a'.repeat(edge - 1) + '\ud83d\ude00' + '\udc99\ud800' + 'é'.repeat(3 * edge),
    Array.from({ length: 3000 }, (_, i) => `line ${i} Ω\n`).join(''),
    'x'.repeat(edge) + '\u0100',
    '\udc80',
  ];
  for (const t of texts) assert.equal(textDigest(t), expected(t), `length ${t.length}`);
  // texts that differ only past the first slice differ
  assert.notEqual(textDigest('x'.repeat(edge) + 'a'), textDigest('x'.repeat(edge) + 'b'));
  // texts of different forms whose bytes would meet do not
  assert.notEqual(textDigest('\u0000\u0001'), textDigest('\u0100'));
  assert.notEqual(textDigest('\u00ffL\u00e9'), textDigest('\u00e9'));
  assert.notEqual(textDigest('\u00ffU\u0000\u0001'), textDigest('\u0100'));
  // the SHA-256 of an ASCII text's UTF-8, given, is its digest; a non-ASCII text's given hash is not used
  assert.equal(textDigest('abc\n', hex('abc\n')), textDigest('abc\n'));
  assert.equal(textDigest('é', 'not used'), expected('é'));
});

test('a chain through long texts: the text an edit wrote is where the next one starts', () => {
  const j = new EditJournal();
  const t = (k: number) => Array.from({ length: 2500 }, (_, i) => `const v${i} = ${i === 7 ? k : i};`).join('\n');
  const s1 = shape(2500, 2500);
  const s2 = shape(2500, 2500);
  j.record('S', '/f', t(0), t(1), s1);
  // a text digested ahead of its record (as fs_edit does while its write waits for the disk)
  j.prepare(t(2));
  // the next edit starts from a copy of the text (another string with the same content)
  j.record('S', '/f', (' ' + t(1)).slice(1), t(2), s2);
  assert.deepEqual(j.chain('S', '/f', t(0), t(2)), [s1, s2]);
  assert.equal(j.chain('S', '/f', t(0), t(3)), null);
});

test('successive edits digest each text once: the new text of an edit stays for the next edit, whose old text it is', () => {
  const j = new EditJournal();
  const internals = j as unknown as { recent: Array<{ text: string }>; digest: (text: string, h?: string) => string };
  const digest = internals.digest.bind(j);
  const computed: number[] = [];
  internals.digest = (text, h) => {
    if (!internals.recent.some((r) => r.text === text)) computed.push(text.length);
    return digest(text, h);
  };
  const texts = Array.from({ length: 6 }, (_, k) => `${'line\n'.repeat(1000)}edit ${k}\n`);
  for (let k = 1; k < texts.length; k++) {
    j.prepare(texts[k]!);
    j.record('S', '/f', texts[k - 1]!, texts[k]!, shape(1001, 1001));
  }
  // the first edit's old text and every new text, once each
  assert.equal(computed.length, texts.length);
  assert.equal(j.chain('S', '/f', texts[0]!, texts[5]!)!.length, 5);
});
