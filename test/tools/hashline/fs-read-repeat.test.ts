// Whole reads of a file read before (the verified cache of io/read/whole-read-cache.ts): the same reply
// while the bytes are the same, the new text as soon as they change (whoever changed them), the
// history's snapshot and seen lines recorded each time, and a batch reading one file twice.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { fsWriteTool } from '../../../src/tools/hashline/fs-write.js';
import { callContext, sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();
const whole = (text: string) => text.split('\n').map((l, i) => `${i + 1}| ${l}`).join('\n');

test('repeated whole reads agree with the disk and record each text', async () => {
  const v1 = Array.from({ length: 300 }, (_, i) => `const v${i} = "${i}";`).join('\n') + '\n';
  const { sb, engine } = await setup({ 'a.ts': v1 });
  const read = async () => (await fsReadTool.run(engine, { targets: [{ path: 'a.ts' }] }, callContext())).structured.results![0]!;
  const first = await read();
  assert.equal(first.content, `¶a.ts#${computeTag(v1)}\n${whole(v1)}`);
  const second = await read();
  assert.deepEqual(second, first);
  const real = path.join(sb.root, 'a.ts');
  assert.equal(engine.history.head(real)!.seen.size, 300);

  // changed on disk behind the engine's back, same size
  const v2 = v1.replace('const v7 = "7";', 'const v7 = "8";');
  await fsp.writeFile(real, v2);
  const third = await read();
  assert.equal(third.content, `¶a.ts#${computeTag(v2)}\n${whole(v2)}`);
  assert.equal(engine.history.head(real)!.text, v2);
  assert.equal(engine.history.head(real)!.seen.size, 300);

  // changed through the engine
  const v3 = `${v2}// end\n`;
  await fsWriteTool.run(engine, { targets: [{ path: 'a.ts', text: v3 }] }, callContext());
  assert.equal((await read()).content, `¶a.ts#${computeTag(v3)}\n${whole(v3)}`);
});

test('one file twice in a batch: both whole, the second under the same header', async () => {
  const text = 'a\r\nb\tc \r\n"d"\r\n';
  const { engine } = await setup({ 'w.txt': text });
  const rs = (await fsReadTool.run(engine, { targets: [{ path: 'w.txt' }, { path: 'w.txt' }] }, callContext())).structured.results!;
  const lf = text.replace(/\r\n/g, '\n');
  assert.equal(rs.length, 2);
  assert.equal(rs[0]!.content, `¶w.txt#${computeTag(lf)}\n${whole(lf)}`);
  assert.deepEqual(rs[1], rs[0]);
});
