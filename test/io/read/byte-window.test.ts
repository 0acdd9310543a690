// A window of lines read while the whole file streams through SHA-256 and the tag
// (io/read/byte-window.ts), against a model that splits the file's bytes into lines: windows
// before, across and after the read's chunk boundaries and past the end, files with and without a
// final newline, CRLF, content cut at maxBytes, and the bytes of a first line skipped. The
// SHA-256 and the tag are those of the whole file whatever the window (the SHA-256 of a large file
// comes from its own thread).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { tagOfFileBytes } from '../../../src/core/text/byte-tag.js';
import { readByteWindow } from '../../../src/io/read/byte-window.js';
import { sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();

/** Lines of `b`, each with its `\n` (a last line without one is a line). */
function splitLines(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (let nl = b.indexOf(10); nl >= 0; nl = b.indexOf(10, at)) {
    out.push(b.subarray(at, nl + 1));
    at = nl + 1;
  }
  if (at < b.length) out.push(b.subarray(at));
  return out;
}

/** What the window holds by the model: lines [start, end) up to maxBytes, cut at the last whole line (ASCII files here). */
function model(b: Buffer, start: number, end: number, maxBytes: number, skip: number) {
  const lines = splitLines(b);
  const win = lines.slice(start, end).map((l, i) => (i === 0 ? l.subarray(Math.min(skip, l.length)) : l));
  let content = Buffer.concat(win);
  const truncated = content.length > maxBytes;
  if (truncated) {
    const head = content.subarray(0, maxBytes);
    const nl = head.lastIndexOf(10);
    content = nl >= 0 ? head.subarray(0, nl + 1) : head;
  }
  return { totalLines: lines.length, content: content.toString('latin1'), truncated };
}

const MiB = 1024 * 1024;
const FILES: Record<string, Buffer> = {
  // past the SHA-256 thread's threshold and several read chunks long, lines of varied lengths
  'long-lf.txt': Buffer.from(Array.from({ length: 200_000 }, (_, i) => `${i} ${'w'.repeat(i % 37)}\n`).join('')),
  'long-crlf-open.txt': Buffer.from(`${Array.from({ length: 150_000 }, (_, i) => `row ${i}${' '.repeat(i % 3)}\r\n`).join('')}no newline at the end`),
  'one-line.txt': Buffer.alloc(2 * MiB + 5, 'x'),
  'small.txt': Buffer.from('a\nb\r\nc'),
  'empty.txt': Buffer.alloc(0),
};

test('windows anywhere in a file match the line model, and name the whole file', async () => {
  const { engine } = await setup(FILES);
  for (const [name, bytes] of Object.entries(FILES)) {
    const rp = await engine.guard.resolve(name, 'read');
    const total = splitLines(bytes).length;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const tag = tagOfFileBytes(bytes);
    const windows: Array<[number, number, number, number]> = [
      [0, 5, MiB, 0],
      [0, 1000, MiB, 0],
      [Math.floor(total / 2), Math.floor(total / 2) + 50, MiB, 0],
      [Math.floor(total / 3), Math.floor(total / 3) + 400, 3000, 0],
      [Math.max(0, total - 100), total, MiB, 0],
      [Math.max(0, total - 3), total + 10, MiB, 0],
      [total + 5, total + 10, MiB, 0],
      [Math.floor(total / 2), Math.floor(total / 2) + 3, MiB, 2],
      [0, 1, 10, 0],
    ];
    for (const [start, end, maxBytes, skip] of windows) {
      const w = await readByteWindow(engine.guard, rp, { start, end, maxBytes, skip }, { tag: true });
      const m = model(bytes, start, end, maxBytes, skip);
      const at = `${name} [${start}, ${end}) max ${maxBytes} skip ${skip}`;
      assert.equal(w.totalLines, m.totalLines, `${at}: totalLines`);
      assert.equal(w.truncated, m.truncated, `${at}: truncated`);
      assert.equal(w.content.toString('latin1'), m.content, `${at}: content`);
      assert.equal(w.sha256, sha256, `${at}: sha256`);
      assert.equal(w.tag, tag, `${at}: tag`);
      assert.equal(w.size, bytes.length);
    }
  }
});
