// A file's two names from one read: the tag equals the tag of its LF, BOM-less text (what fs_read
// shows) and the SHA-256 that of its bytes (what file_hash returns), for CRLF, a BOM, trailing
// blanks, bytes that are not UTF-8 and a file larger than one read chunk; a window read
// (io/read/byte-window.ts) and bytes in hand give the same.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';
import { CHUNK_BYTES } from '../../../src/io/read/line-reader.js';
import { THREAD_HASH_MIN_BYTES } from '../../../src/io/read/hashed-chunks.js';
import { readByteWindow } from '../../../src/io/read/byte-window.js';
import { fileIdentity, identityOfBytes, tagOfBytes } from '../../../src/io/read/file-identity.js';
import { sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();

const CASES: Record<string, Uint8Array> = {
  'lf.txt': Buffer.from('alpha\nbeta\n'),
  'crlf.txt': Buffer.from('alpha\r\nbeta \r\n'),
  'bom.txt': Buffer.from('\uFEFFΩ first\nsecond'),
  'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x78, 0x0a]),
  'empty.txt': Buffer.alloc(0),
  'huge.txt': Buffer.from(Array.from({ length: 110_000 }, (_, i) => `row ${i} \r\n`).join('')),
  'big.txt': Buffer.from(Array.from({ length: Math.ceil((3 * CHUNK_BYTES) / 20) }, (_, i) => `line ${i}\t \r\n`).join('')),
  // from THREAD_HASH_MIN_BYTES on the SHA-256 runs on its own thread while the tag is taken here:
  // read at once (up to 1 MiB) and streamed, a BOM, CRLF, bytes that are not UTF-8 across chunks
  'edge.txt': Buffer.alloc(THREAD_HASH_MIN_BYTES, 'ab \n'),
  'mid-bom-crlf.txt': Buffer.from(`\uFEFF${Array.from({ length: 40_000 }, (_, i) => `é ${i} \r\n`).join('')}`),
  'mid-latin1.txt': Buffer.concat(Array.from({ length: 60_000 }, (_, i) => Buffer.from([0x63, 0xe9, 0xff, 0x20 + (i % 50), 0x0d, 0x0a]))),
  'large-lf.txt': Buffer.from(Array.from({ length: 250_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 13)}\n`).join('')),
};

test('the tag is the text\'s tag and the SHA-256 the bytes\', read streamed or from memory', async () => {
  const { engine } = await setup(CASES);
  for (const [name, bytes] of Object.entries(CASES)) {
    const want = { tag: computeTag(docText(parseDoc(bytes))), sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
    assert.deepEqual(await fileIdentity(engine.guard, await engine.guard.resolve(name, 'read')), want, name);
    assert.deepEqual(await fileIdentity(engine.guard, await engine.guard.resolve(name, 'read'), undefined, true), want, `${name} (file_hash's read)`);
    assert.deepEqual(identityOfBytes(Buffer.from(bytes)), want, `${name} in memory`);
  }
});

test('a window read and bytes in hand give the same two names (one read, no second pass)', async () => {
  const { engine } = await setup(CASES);
  for (const [name, bytes] of Object.entries(CASES)) {
    const want = computeTag(docText(parseDoc(bytes)));
    assert.equal(tagOfBytes(bytes), want, `${name} in memory`);
    const w = await readByteWindow(engine.guard, await engine.guard.resolve(name, 'read'), { start: 1, end: 3, maxBytes: 1000 }, { tag: true });
    assert.equal(w.tag, want, `${name} window`);
    assert.equal(w.sha256, createHash('sha256').update(bytes).digest('hex'), `${name} window sha256`);
    assert.equal(w.size, bytes.length);
  }
});
