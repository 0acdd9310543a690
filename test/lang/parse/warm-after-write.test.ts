// After fs_edit writes a file that was read by symbol, the new text is parsed in the background and
// the names read before are looked up on it, so the next symbol read parses nothing; a file never
// read structurally is not parsed; the read still shows what is on disk.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseStats } from '../../../src/lang/parse/parse-cache.js';
import { warmStats } from '../../../src/lang/parse/warm-after-write.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import type { Engine } from '../../../src/tools/engine.js';
import { callContext, sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();

const fn = (name: string, body: string) => `export function ${name}(a: number): number {\n  const x = a + 1;\n  return x * ${body};\n}\n`;

async function readSymbol(engine: Engine, rel: string, symbol: string) {
  const out = await fsReadTool.run(engine, fsReadTool.input.parse({ targets: [{ path: rel, symbol }] }), callContext());
  return out.structured.results![0]!;
}

async function edit(engine: Engine, rel: string, tag: string, ops: string) {
  const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: rel, file_hash: tag, ops }] }), callContext());
  assert.equal(out.isError, undefined, out.text);
  return out.structured.results![0]!;
}

/** Turns of the event loop until `done` holds (a bounded count of turns, not a time). */
async function turnsUntil(done: () => boolean, max = 10_000): Promise<void> {
  for (let i = 0; i < max && !done(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(done(), 'the background work did not finish');
}

test('the tree of the text an edit wrote is kept: the next symbol read parses nothing and shows the new text', async () => {
  const { engine } = await setup({ 'a.ts': fn('one', '2') + fn('two', '3') });
  const first = await readSymbol(engine, 'a.ts', 'two');
  const warmed = warmStats.parsed;
  const edited = await edit(engine, 'a.ts', first.file_hash, 'replace 7:\n+  return x * 30;');
  await turnsUntil(() => warmStats.parsed === warmed + 1);
  const parses = parseStats.parsed;
  const again = await readSymbol(engine, 'a.ts', 'two');
  assert.equal(parseStats.parsed, parses, 'the read parsed the file again');
  assert.equal(again.file_hash, edited.file_hash);
  assert.match(again.content, /7\| {3}return x \* 30;/);
});

test('a file never read by symbol or block is not parsed after an edit; a change on disk is read as it is', async () => {
  const { sb, engine } = await setup({ 'b.ts': fn('one', '2') });
  const whole = await fsReadTool.run(engine, fsReadTool.input.parse({ targets: [{ path: 'b.ts' }] }), callContext());
  const warmed = warmStats.parsed;
  const edited = await edit(engine, 'b.ts', whole.structured.results![0]!.file_hash, 'replace 3:\n+  return x * 4;');
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
  assert.equal(warmStats.parsed, warmed);
  // read by symbol now (the file becomes of interest), edit, then change the file behind the server's back
  const read = await readSymbol(engine, 'b.ts', 'one');
  assert.equal(read.file_hash, edited.file_hash);
  await edit(engine, 'b.ts', read.file_hash, 'replace 3:\n+  return x * 5;');
  await turnsUntil(() => warmStats.parsed === warmed + 1);
  await fsp.writeFile(path.join(sb.root, 'b.ts'), fn('one', '6'));
  const after = await readSymbol(engine, 'b.ts', 'one');
  assert.match(after.content, /3\| {3}return x \* 6;/);
});

test('a symbol read that comes while the new text is still parsing waits for that parse instead of parsing again', async () => {
  // a file long enough that its parse takes longer than the read's own file I/O
  const many = Array.from({ length: 600 }, (_, i) => fn(`f${i}`, String(i))).join('');
  const { engine } = await setup({ 'c.ts': fn('one', '2') + fn('two', '3') + many });
  const first = await readSymbol(engine, 'c.ts', 'two');
  const warmed = warmStats.parsed;
  const parses = parseStats.parsed;
  // an edit of two functions, which the region re-parse of one definition (lang/symbols/symbol-region.ts) does not serve
  const edited = await edit(engine, 'c.ts', first.file_hash, 'replace 3..7:\n+  return x * 21;\n+}\n+export function two(a: number): number {\n+  const x = a + 1;\n+  return x * 31;');
  // no turn of the event loop between the edit's reply and the read: the background parse has not run
  assert.equal(warmStats.parsed, warmed);
  const again = await readSymbol(engine, 'c.ts', 'two');
  assert.equal(warmStats.parsed, warmed + 1, 'the read did not wait for the background parse');
  assert.equal(parseStats.parsed, parses, 'the read parsed the file a second time');
  assert.equal(again.file_hash, edited.file_hash);
  assert.match(again.content, /7\| {3}return x \* 31;/);
});
