import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { docText, parseDoc } from '../../../src/core/text/text-doc.js';
import { fileHashTool } from '../../../src/tools/boundary/file-hash.js';
import { callContext, engineFor } from '../../helpers/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('file_hash: a cancelled call stops with the code aborted', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a' });
  const engine = await engineFor(sb.root);
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(
    fileHashTool.run(engine, { filePaths: ['a.txt'] }, { signal: ac.signal, progress: () => undefined }),
    (e: { code?: string }) => e.code === 'aborted',
  );
  await sb.cleanup();
});

test('file_hash: streams a large file and matches crypto', async () => {
  const big = Buffer.alloc(5 * 1024 * 1024 + 17, 7);
  const sb = await makeSandbox({ 'big.bin': big, 'd/x': 'x' });
  const engine = await engineFor(sb.root);
  const out = await fileHashTool.run(engine, { filePaths: ['big.bin', 'd', 'missing'] }, callContext());
  assert.equal(out.structured.files[0]!.sha256, createHash('sha256').update(big).digest('hex'));
  assert.equal(out.structured.files[0]!.size, big.length);
  assert.equal(out.structured.files[1]!.error?.code, 'is_directory');
  assert.equal(out.structured.files[2]!.error?.code, 'not_found');
  await sb.cleanup();
});

test('file_hash: files hashed side by side come back in the order asked, each matching crypto, whole or streamed', async () => {
  const files: Record<string, Buffer> = { 'empty.bin': Buffer.alloc(0), 'over.bin': Buffer.alloc(16 * 1024 * 1024 + 5, 3) };
  for (let i = 0; i < 12; i++) files[`f${i}.bin`] = Buffer.alloc(1000 * i + 1, i);
  const sb = await makeSandbox(files);
  const engine = await engineFor(sb.root);
  const asked = ['over.bin', ...Object.keys(files).filter((n) => n !== 'over.bin').reverse(), 'missing', 'f1.bin'];
  let progress = 0;
  const out = await fileHashTool.run(engine, { filePaths: asked }, { signal: new AbortController().signal, progress: () => void progress++ });
  assert.deepEqual(out.structured.files.map((f) => f.filePath), asked);
  for (const [i, name] of asked.entries()) {
    const f = out.structured.files[i]!;
    if (name === 'missing') assert.equal(f.error?.code, 'not_found');
    else {
      assert.equal(f.sha256, createHash('sha256').update(files[name]!).digest('hex'), name);
      assert.equal(f.size, files[name]!.length);
    }
  }
  assert.equal(progress, asked.length);
  await sb.cleanup();
});

test('file_hash: the tag is that of the LF, BOM-less text, for a small file (read at once) and a large one (streamed)', async () => {
  const big = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `line ${i} \r\n`).join('')); // 0.8 MB...
  const files: Record<string, Buffer> = {
    'crlf.txt': Buffer.from('a \r\nb\r\n'),
    'bom.txt': Buffer.from('\uFEFFΩ\nx'),
    'blank.txt': Buffer.from('x\t\n'),
    'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
    'plain.txt': Buffer.from('just text\n'),
    'big.txt': Buffer.concat([big, big]), // ...1.6 MB: over the size read at once
  };
  const sb = await makeSandbox(files);
  execFileSync('mkfifo', [`${sb.root}/pipe`]);
  const engine = await engineFor(sb.root);
  const names = [...Object.keys(files), 'pipe'];
  const out = await fileHashTool.run(engine, { filePaths: names }, callContext());
  for (const [i, name] of Object.keys(files).entries()) {
    assert.equal(out.structured.files[i]!.tag, computeTag(docText(parseDoc(files[name]!))), name);
    assert.equal(out.structured.files[i]!.sha256, createHash('sha256').update(files[name]!).digest('hex'), name);
  }
  assert.equal(out.structured.files[names.length - 1]!.error?.code, 'not_regular_file');
  await sb.cleanup();
});

test('file_hash: a binary file (a NUL in its first 8 KiB) gets its SHA-256 and no tag, read at once or streamed; a NUL later keeps the tag', async () => {
  const random = randomBytes(3 * 1024 * 1024);
  random[100] = 0;
  const lateNul = Buffer.concat([Buffer.from('x\n'.repeat(5000)), Buffer.from([0]), Buffer.from('y\n')]);
  const files: Record<string, Buffer> = {
    'small.bin': Buffer.concat([Buffer.from('PNG'), Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a])]),
    'big.bin': random, // over the size read at once: streamed
    'late-nul.txt': lateNul, // the NUL past 8 KiB: text by the binary rule
  };
  const sb = await makeSandbox(files);
  const engine = await engineFor(sb.root);
  const out = await fileHashTool.run(engine, { filePaths: Object.keys(files) }, callContext());
  const [small, big, late] = out.structured.files;
  for (const [e, name] of [[small, 'small.bin'], [big, 'big.bin'], [late, 'late-nul.txt']] as const) {
    assert.equal(e!.sha256, createHash('sha256').update(files[name]!).digest('hex'), name);
    assert.equal(e!.size, files[name]!.length, name);
  }
  assert.equal(small!.tag, undefined);
  assert.equal(big!.tag, undefined);
  assert.equal(late!.tag, computeTag(docText(parseDoc(lateNul))));
  await sb.cleanup();
});

test('file_hash: a cancellation that arrives while many files are hashed (each read at once) is seen between files', async () => {
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < 40; i++) files[`m${i}.bin`] = Buffer.alloc(1024 * 1024, i);
  const sb = await makeSandbox(files);
  const engine = await engineFor(sb.root);
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 1);
  await assert.rejects(
    fileHashTool.run(engine, { filePaths: Object.keys(files) }, { signal: ac.signal, progress: () => undefined }),
    (e: { code?: string }) => e.code === 'aborted',
  );
  await sb.cleanup();
});

test('file_hash: files from 256 KiB to 1 MiB, each read at once into one reused buffer, each get their own names', async () => {
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < 9; i++) files[`mid${i}.txt`] = Buffer.from(`file ${i} line \n`.repeat(20_000 + 3_000 * i)).subarray(0, 256 * 1024 + 90_000 * i);
  const sb = await makeSandbox(files);
  const engine = await engineFor(sb.root);
  let progress = 0;
  const out = await fileHashTool.run(engine, { filePaths: Object.keys(files) }, { signal: new AbortController().signal, progress: () => void progress++ });
  for (const [i, [name, bytes]] of Object.entries(files).entries()) {
    assert.deepEqual(out.structured.files[i], { filePath: name, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, tag: computeTag(docText(parseDoc(bytes))) });
  }
  assert.equal(progress, 9);
  await sb.cleanup();
});
