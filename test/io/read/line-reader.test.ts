// The streaming line reader agrees with the whole-file text model on every shape of file,
// including terminators and multi-byte characters split across chunk boundaries.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';
import fc from 'fast-check';
import { CHUNK_BYTES, scanBytes, scanLines } from '../../../src/io/read/line-reader.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

async function check(file: string, bytes: Uint8Array): Promise<void> {
  await fsp.writeFile(file, bytes);
  const h = await fsp.open(file);
  const lines: string[] = [];
  try {
    const scan = await scanLines(h, bytes.length, (n, l) => {
      assert.equal(n, lines.length + 1);
      lines.push(l);
    }, { keepTextUpTo: Number.POSITIVE_INFINITY });
    const doc = parseDoc(bytes);
    const text = docText(doc);
    assert.deepEqual(lines, doc.lines);
    assert.equal(scan.text, text);
    assert.equal(scan.tag, computeTag(text));
    assert.equal(scan.total, doc.lines.length);
    assert.equal(scan.utf8, doc.utf8);
    assert.equal(scan.bom, doc.bom);
    assert.equal(scan.eol, doc.eol);
    // plain: the bytes are the UTF-8 of the LF text, so a store may keep them as they are
    assert.equal(scan.plain, doc.utf8 && !doc.bom && !doc.endings.some((e) => e.includes('\r')));
    if (scan.plain) assert.ok(Buffer.from(text).equals(bytes));
    assert.equal(scan.trailingEmpty, doc.lines.length === 0 || doc.endings.at(-1) !== '');
    // the in-memory scan (its own pieces) agrees with the streamed one
    const inMemory: string[] = [];
    const mem = scanBytes(Buffer.from(bytes), (_n, l) => void inMemory.push(l), { keepTextUpTo: Number.POSITIVE_INFINITY });
    assert.deepEqual(inMemory, doc.lines);
    assert.deepEqual(mem, scan);
  } finally {
    await h.close();
  }
}

test('small shapes', async () => {
  const sb = await makeSandbox();
  try {
    const f = path.join(sb.root, 'f');
    const samples: Array<string | Uint8Array> = ['', 'a', 'a\n', '\n\n', 'a\r\nb\r\n', 'x\ry\r', '\ufeffhé\n', 'a  \nb\t\r\n c', 'a \r\r \n', Uint8Array.of(0x61, 0xff, 0x0a, 0xc3, 0x0d, 0x0d, 0x0a, 0xe2, 0x82)];
    for (const s of samples) await check(f, typeof s === 'string' ? Buffer.from(s) : s);
  } finally {
    await sb.cleanup();
  }
});

test('terminators and characters across chunk boundaries', async () => {
  const sb = await makeSandbox();
  try {
    const f = path.join(sb.root, 'f');
    for (const cut of [CHUNK_BYTES - 2, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1]) {
      for (const tail of ['\r\nnext\r\n', '\rnext\n', 'é€😀\nz', '\n']) {
        const head = Buffer.alloc(cut, 0x61);
        await check(f, Buffer.concat([head, Buffer.from(tail)]));
      }
    }
    // one line longer than a chunk, then CRLF lines
    await check(f, Buffer.concat([Buffer.alloc(CHUNK_BYTES * 2 + 5, 0x62), Buffer.from('\r\nx\r\ny')]));
  } finally {
    await sb.cleanup();
  }
});

test('in-memory scans agree with the text model on random files (blanks, tabs, CR, LF, non-UTF-8 bytes)', () => {
  const piece = fc.constantFrom(
    Buffer.from('a'),
    Buffer.from(' '),
    Buffer.from('\t'),
    Buffer.from('\n'),
    Buffer.from('\r'),
    Buffer.from('é'),
    Buffer.from([0xff]),
    Buffer.from('\ufeff'),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
      const bytes = Buffer.concat(parts);
      const lines: string[] = [];
      const scan = scanBytes(bytes, (_n, l) => lines.push(l), { keepTextUpTo: Number.POSITIVE_INFINITY });
      const doc = parseDoc(bytes);
      assert.deepEqual(lines, doc.lines);
      assert.equal(scan.text, docText(doc));
      assert.equal(scan.tag, computeTag(docText(doc)));
      assert.equal(scan.utf8, doc.utf8);
      assert.equal(scan.plain, Buffer.from(docText(doc)).equals(bytes) && doc.utf8);
    }),
    { numRuns: 3000 },
  );
});
