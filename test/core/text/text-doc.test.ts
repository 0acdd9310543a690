import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeBytes, displayText, encodeText, hasEscapedBytes, hasLoneSurrogate } from '../../../src/core/text/text-codec.js';
import { docFromText, docTag, docText, parseDoc, parseDocAndText, reparsesAs, serializeDoc, serializeWithText, splitLines, textShape, type TextDoc } from '../../../src/core/text/text-doc.js';
import { computeTag } from '../../../src/core/text/tag.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'binary'));

test('property: detect-then-restore round-trips any bytes exactly', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
      assert.deepEqual(serializeDoc(parseDoc(b)), b);
    }),
    { numRuns: 3000 },
  );
});

test('property: round trip of text-like bytes with BOM, CRLF, CR, LF and invalid UTF-8', () => {
  const piece = fc.constantFrom('a', 'é', '\r\n', '\n', '\r', ' ', '\t', '\xff', '\x99', '\xef\xbb\xbf', 'Ω', '\x00');
  fc.assert(
    fc.property(fc.boolean(), fc.array(piece, { maxLength: 60 }), (bom, parts) => {
      const raw = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), ...parts.map((p) => Buffer.from(p, p.length === 1 && p.charCodeAt(0) > 0x7f && p.charCodeAt(0) < 0x100 ? 'latin1' : 'utf8'))]);
      assert.deepEqual(Buffer.from(serializeDoc(parseDoc(raw))), raw);
    }),
    { numRuns: 2000 },
  );
});

test('property: serializeWithText gives serializeDoc, docText and (when it says so) the text\'s own encoding', () => {
  const piece = fc.constantFrom('a', 'é', '\r\n', '\n', '\n', '\r', ' ', '\xff', '\x99', '\xef\xbb\xbf', 'Ω', '\ud83d\ude00');
  let withBytes = 0;
  fc.assert(
    fc.property(fc.boolean(), fc.array(piece, { maxLength: 60 }), (bom, parts) => {
      const raw = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), ...parts.map((p) => Buffer.from(p, p.length === 1 && p.charCodeAt(0) > 0x7f && p.charCodeAt(0) < 0x100 ? 'latin1' : 'utf8'))]);
      const doc = parseDoc(raw);
      const out = serializeWithText(doc);
      assert.deepEqual(Buffer.from(out.bytes), Buffer.from(serializeDoc(doc)));
      assert.equal(out.text, docText(doc));
      if (out.textBytes !== undefined) {
        withBytes++;
        assert.deepEqual(Buffer.from(out.textBytes), Buffer.from(encodeText(out.text)));
      }
    }),
    { numRuns: 3000 },
  );
  assert.ok(withBytes > 100, `the LF-only case was met ${withBytes} times`);
});

test('property: a document reparsesAs its text only when its bytes parse back to exactly it (lines, endings, tag)', () => {
  // documents as an edit makes them: lines of any content (rows sent by a client may hold CR, LF,
  // a BOM character, lone surrogates or escaped bytes), any endings, any eol and utf8 flag
  const plain = fc.constantFrom('a', 'é', 'x y', '', ' ', '\t', '\ud83d\ude00', 'Ω');
  const odd = fc.constantFrom('\r', '\n', '\ufeff', '\ud800', '\udc99', '\udcff');
  const chunk = fc.oneof({ arbitrary: plain, weight: 12 }, { arbitrary: odd, weight: 1 });
  const line = fc.array(chunk, { maxLength: 4 }).map((a) => a.join(''));
  const ending = fc.constantFrom('\n', '\n', '\n', '\n', '\n', '\n', '\r\n', '\r', '');
  const docArb = fc
    .record({
      bom: fc.boolean(),
      rows: fc.array(fc.tuple(line, ending), { maxLength: 12 }),
      eol: fc.constantFrom('\n', '\n', '\n', '\r\n', '\r'),
      utf8: fc.constantFrom(true, true, true, false),
    })
    .map(({ bom, rows, eol, utf8 }): TextDoc => ({
      bom,
      // only the last line may lack a terminator
      lines: rows.map(([l]) => l),
      endings: rows.map(([, e], i) => (e === '' && i < rows.length - 1 ? '\n' : e)),
      eol: eol as TextDoc['eol'],
      utf8,
    }));
  let kept = 0;
  fc.assert(
    fc.property(docArb, (doc) => {
      const { bytes, text } = serializeWithText(doc);
      if (!reparsesAs(doc, text)) return;
      kept++;
      const back = parseDocAndText(bytes);
      assert.deepEqual(back.doc, doc);
      assert.equal(back.text, text);
      assert.equal(docTag(back.doc, bytes), docTag(doc, bytes));
    }),
    { numRuns: 5000 },
  );
  assert.ok(kept > 500, `documents that reparse as themselves were met ${kept} times`);
});

test('reparsesAs: the plain case, and each thing that a parse of the bytes would not give back', () => {
  const doc = (lines: string[], endings: string[], over: Partial<TextDoc> = {}): TextDoc => ({ bom: false, lines, endings, eol: '\n', utf8: true, ...over });
  const check = (d: TextDoc) => reparsesAs(d, serializeWithText(d).text);
  assert.equal(check(doc(['a', 'b'], ['\n', '\n'])), true);
  assert.equal(check(doc(['a', 'b'], ['\n', ''])), true);
  assert.equal(check(doc([], [])), true);
  assert.equal(check(doc(['\ufeffa'], ['\n'], { bom: true })), true);
  assert.equal(check(doc(['a', 'b'], ['\r\n', '\n'])), false, 'a CRLF ending');
  assert.equal(check(doc(['a', ''], ['\n', ''])), false, 'an empty unterminated last line is no line');
  assert.equal(check(doc(['a\rb'], ['\n'])), false, 'a CR inside a line');
  assert.equal(check(doc(['a\nb'], ['\n'])), false, 'an LF inside a line');
  assert.equal(check(doc(['\ufeffa'], ['\n'])), false, 'a BOM character the bytes turn into a BOM');
  assert.equal(check(doc(['a\ud800'], ['\n'])), false, 'a lone surrogate');
  assert.equal(check(doc(['a\udc99'], ['\n'])), false, 'an escaped byte');
  assert.equal(check(doc(['a'], ['\n'], { utf8: false })), false, 'a document read from invalid UTF-8');
  assert.equal(check(doc(['a'], ['\n'], { eol: '\r\n' })), false, 'a CRLF document whose CRLF lines are gone');
});

test('serializeWithText: the LF text is one flat string, terminated or not', () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} of a text longer than 128 KiB once joined ..............`);
  for (const last of ['\n', '']) {
    const doc: TextDoc = { bom: false, lines, endings: lines.map((_, i) => (i === lines.length - 1 ? last : '\n')), eol: '\n', utf8: true };
    const out = serializeWithText(doc);
    assert.equal(out.text, lines.join('\n') + last);
    assert.deepEqual(Buffer.from(out.bytes), Buffer.from(lines.join('\n') + last));
  }
});

test('BOM and line endings are detected', () => {
  const d = parseDoc(Buffer.from('\ufeffa\r\nb\r\n', 'utf8'));
  assert.equal(d.bom, true);
  assert.equal(d.eol, '\r\n');
  assert.deepEqual(d.lines, ['a', 'b']);
  assert.equal(docText(d), 'a\nb\n');
  const n = parseDoc(bytes('x\ny'));
  assert.equal(n.eol, '\n');
  assert.deepEqual(n.endings, ['\n', '']);
  assert.equal(docText(n), 'x\ny');
  assert.equal(parseDoc(new Uint8Array()).lines.length, 0);
});

test('CRLF and LF versions of a file share a tag', () => {
  const a = parseDoc(Buffer.from('one\r\ntwo  \r\n'));
  const b = parseDoc(Buffer.from('one\ntwo\n'));
  assert.equal(computeTag(docText(a)), computeTag(docText(b)));
});

test('a new document in a CRLF + BOM shape is written with CRLF and BOM', () => {
  const d = docFromText('a\nb\n', { bom: true, eol: '\r\n' });
  assert.deepEqual(Buffer.from(serializeDoc(d)), Buffer.from('\ufeffa\r\nb\r\n', 'utf8'));
});

test('non-UTF-8 bytes are escaped, shown as U+FFFD, and written back exactly', () => {
  const raw = Buffer.from([0x61, 0x99, 0x62, 0x0a, 0xc3, 0xa9, 0x0a]); // a<0x99>b\n é\n
  const dec = decodeBytes(raw);
  assert.equal(dec.utf8, false);
  assert.equal(hasEscapedBytes(dec.text), true);
  assert.equal(displayText(dec.text), 'a\uFFFDb\né\n');
  assert.deepEqual(Buffer.from(encodeText(dec.text)), raw);
  assert.equal(hasLoneSurrogate('ok \uD83D\uDE00'), false);
  assert.equal(hasLoneSurrogate('bad \uDC99'), true);
});

test('property: splitLines (native split for LF-only text) equals splitting terminator by terminator', () => {
  // the reference: split with the terminators captured, then pair each piece with the one after it
  const reference = (text: string) => {
    const parts = text.split(/(\r\n|\n|\r)/);
    const lines: string[] = [];
    const endings: string[] = [];
    for (let k = 0; k < parts.length; k += 2) {
      if (k === parts.length - 1 && parts[k] === '') break;
      lines.push(parts[k]!);
      endings.push(parts[k + 1] ?? '');
    }
    return { lines, endings };
  };
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', '', 'é', '\n', '\n', '\r', '\r\n', ' '), { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      assert.deepEqual(splitLines(text), reference(text));
      assert.deepEqual(Buffer.from(serializeDoc(parseDoc(Buffer.from(text)))), Buffer.from(text));
    }),
    { numRuns: 5000 },
  );
});

test('property: the tag taken from the bytes equals the tag of the text, and the text read along equals docText', () => {
  const piece = fc.constantFrom('a', 'é', '\r\n', '\n', '\n', '\r', ' ', '\t', '\xff', '\xef\xbb\xbf', '');
  fc.assert(
    fc.property(fc.boolean(), fc.array(piece, { maxLength: 40 }), (bom, parts) => {
      const raw = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), ...parts.map((p) => Buffer.from(p, p === '\xff' ? 'latin1' : 'utf8'))]);
      const { doc, text } = parseDocAndText(raw);
      assert.equal(text, docText(doc));
      assert.equal(docTag(doc, raw), computeTag(docText(doc)));
    }),
    { numRuns: 5000 },
  );
});

test('textShape finds what parseDoc finds, without splitting lines', () => {
  const cases = ['', 'a', 'a\n', 'a\r\nb\n', 'a\rb\r\n', '\ufeffx\r\ny', 'x\ny\r\n', 'p\r', 'é\n\r\n\r'];
  for (const text of cases) {
    const bytes = new TextEncoder().encode(text);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    for (const b of [bytes, withBom, Uint8Array.of(0x61, 0xff, 0x0d, 0x0a)]) {
      const { doc, text: lf } = parseDocAndText(b);
      const shape = textShape(b);
      assert.deepEqual({ bom: shape.bom, eol: shape.eol, utf8: shape.utf8, text: shape.text }, { bom: doc.bom, eol: doc.eol, utf8: doc.utf8, text: lf }, JSON.stringify(text));
      assert.equal(shape.raw, doc.lines.map((l, i) => l + doc.endings[i]).join(''));
    }
  }
});
