// fs_edit loads a file it just wrote without parsing it again (io/read/written-texts.ts): the bytes read
// must be exactly the bytes written, else the file is parsed as always. Counts the loads that took
// the kept parse, and checks each result against the file on disk.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { loadTextFile } from '../../../src/io/read/text-file.js';
import { WrittenTexts, writtenStats } from '../../../src/io/read/written-texts.js';
import type { Engine } from '../../../src/tools/engine.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { callContext, sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();

async function read(engine: Engine, rel: string): Promise<string> {
  const out = await fsReadTool.run(engine, fsReadTool.input.parse({ targets: [{ path: rel }] }), callContext());
  return (out.structured as { results: { file_hash: string }[] }).results[0]!.file_hash;
}

async function edit(engine: Engine, rel: string, tag: string, ops: string) {
  const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: rel, file_hash: tag, ops }] }), callContext());
  assert.equal(out.isError, undefined, out.text);
  return out.structured.results![0]!;
}

const lines = (n: number, mark = '') => Array.from({ length: n }, (_, i) => `line ${i + 1}${i === 4 ? mark : ''}`).join('\n') + '\n';

test('an edit of the text an edit just wrote takes that parse; the result is what the disk holds', async () => {
  const { sb, engine } = await setup({ 'a.ts': lines(20) });
  const file = path.join(sb.root, 'a.ts');
  let tag = await read(engine, 'a.ts');
  const used = writtenStats.used;
  const first = await edit(engine, 'a.ts', tag, 'replace 5:\n+five');
  assert.equal(writtenStats.used, used, 'the first edit parses what it read');
  tag = first.file_hash;
  const second = await edit(engine, 'a.ts', tag, 'replace 6:\n+six\ninsert tail:\n+end');
  assert.equal(writtenStats.used, used + 1, 'the second edit loads the bytes the first wrote');
  const disk = await fsp.readFile(file, 'utf8');
  assert.equal(disk, lines(20).replace('line 5\n', 'five\n').replace('line 6\n', 'six\n') + 'end\n');
  assert.equal(second.file_hash, computeTag(disk));
  // and the tag it answered is good for a third edit, which again needs no parse
  await edit(engine, 'a.ts', second.file_hash, 'delete 1');
  assert.equal(writtenStats.used, used + 2);
  assert.equal(await fsp.readFile(file, 'utf8'), disk.slice('line 1\n'.length));
});

test('bytes changed by another writer (same size) are parsed: the edit applies to what is on disk', async () => {
  const { sb, engine } = await setup({ 'a.ts': lines(12) });
  const file = path.join(sb.root, 'a.ts');
  const first = await edit(engine, 'a.ts', await read(engine, 'a.ts'), 'replace 2:\n+two');
  assert.ok(first.file_hash);
  // another writer changes one byte, keeping the size
  const changed = (await fsp.readFile(file, 'utf8')).replace('line 9', 'line X');
  await fsp.writeFile(file, changed);
  const used = writtenStats.used;
  const tag = await read(engine, 'a.ts');
  assert.equal(tag, computeTag(changed));
  const out = await edit(engine, 'a.ts', tag, 'replace 3:\n+three');
  assert.equal(writtenStats.used, used, 'bytes that differ are parsed again');
  const disk = await fsp.readFile(file, 'utf8');
  assert.equal(disk, changed.replace('line 3\n', 'three\n'));
  assert.equal(out.file_hash, computeTag(disk));
});

test('a CRLF file is parsed on every load (its document is not kept); endings stay CRLF', async () => {
  const crlf = lines(8).replace(/\n/g, '\r\n');
  const { sb, engine } = await setup({ 'w.txt': crlf });
  const file = path.join(sb.root, 'w.txt');
  const used = writtenStats.used;
  const first = await edit(engine, 'w.txt', await read(engine, 'w.txt'), 'replace 2:\n+two');
  const second = await edit(engine, 'w.txt', first.file_hash, 'insert after 2:\n+two and a half');
  assert.equal(writtenStats.used, used);
  const disk = await fsp.readFile(file, 'utf8');
  assert.equal(disk, crlf.replace('line 2\r\n', 'two\r\ntwo and a half\r\n'));
  assert.equal(second.file_hash, computeTag(disk.replace(/\r\n/g, '\n')));
});

test('loads that compare against what was written read into one reused buffer: what a load keeps is its own copy', async () => {
  const { sb, engine } = await setup({ 'a.ts': lines(30), 'b.ts': lines(30, ' b') });
  const a = path.join(sb.root, 'a.ts');
  const b = path.join(sb.root, 'b.ts');
  const written = new WrittenTexts();
  const la = await loadTextFile(engine.guard, await engine.guard.resolve('a.ts', 'write'), 'write', written);
  const lb = await loadTextFile(engine.guard, await engine.guard.resolve('b.ts', 'write'), 'write', written);
  assert.equal(Buffer.from(la.bytes).toString(), await fsp.readFile(a, 'utf8'));
  assert.equal(Buffer.from(lb.bytes).toString(), await fsp.readFile(b, 'utf8'));
  assert.equal(la.text, lines(30));
  // a kept write is found by content; the load answers with the kept document
  written.remember(a, { bytes: la.bytes, doc: la.doc, text: la.text, tag: la.tag });
  const again = await loadTextFile(engine.guard, await engine.guard.resolve('a.ts', 'write'), 'write', written);
  assert.equal(again.doc, la.doc);
  assert.equal(again.tag, la.tag);
  assert.equal(Buffer.from(la.bytes).toString(), lines(30), 'the first load\'s bytes are intact after later loads');
});
