// fs_edit's opt-in compact reply: an edit applied as sent answers with its new tag and the changed
// lines of the new file instead of the diff; a merged stale edit still carries its diff; the
// default reply is unchanged (seed 000: the fresh tag and a 3-line-context diff).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as msg from '../../src/core/messages/edit.js';
import { computeTag, formatHeader } from '../../src/core/tag.js';
import { fsEditTool } from '../../src/tools/fs-edit.js';
import { callContext, sandboxedEngines } from '../helpers/engine.js';

const setup = sandboxedEngines();
const TEXT = 'one\ntwo\nthree\nfour\nfive\nsix\n';

function read(engine: Parameters<typeof fsEditTool.run>[0], real: string, text: string): string {
  const tag = engine.history.record(real, text)!;
  engine.history.markSeen(real, text, text.split('\n').map((_, i) => i + 1));
  return tag;
}

test('compact: the tag and the changed lines, no diff; the file is edited exactly as with the default reply', async () => {
  const { sb, engine } = await setup({ 'a.txt': TEXT });
  const real = path.join(sb.root, 'a.txt');
  const tag = read(engine, real, TEXT);
  const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 2..3:\n+TWO\n+2.5\n+THREE\ndelete 5' }], reply: 'compact' }), callContext());
  const after = 'one\nTWO\n2.5\nTHREE\nfour\nsix\n';
  assert.equal(await fsp.readFile(real, 'utf8'), after);
  const r = out.structured.results![0]!;
  assert.deepEqual(r, { path: 'a.txt', file_hash: computeTag(after), header: formatHeader('a.txt', computeTag(after)), warnings: [], first_changed_line: 2 });
  assert.equal(out.text, `${formatHeader('a.txt', computeTag(after))}\n${msg.compactSpan(2, 6, 3, 3)}`);
  assert.equal(msg.compactSpan(2, 6, 3, 3), 'changed: lines 2-6 of the new file (+3 -3 lines)');
});

test('compact: a merged stale edit still shows its diff', async () => {
  const { sb, engine } = await setup({ 'a.txt': TEXT });
  const real = path.join(sb.root, 'a.txt');
  const tag = read(engine, real, TEXT);
  await fsp.writeFile(real, `zero\n${TEXT}`);
  const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 4:\n+FOUR' }], reply: 'compact' }), callContext());
  const r = out.structured.results![0]!;
  assert.equal(await fsp.readFile(real, 'utf8'), 'zero\none\ntwo\nthree\nFOUR\nfive\nsix\n');
  assert.match(r.diff ?? '', /^--- a\.txt\n\+\+\+ a\.txt\n@@ /);
  assert.ok(r.warnings.includes(msg.RECOVERED_PREVIOUS_READ));
});

test('the default reply keeps the diff, and an unknown reply mode is refused by the schema', async () => {
  const { sb, engine } = await setup({ 'a.txt': TEXT });
  const real = path.join(sb.root, 'a.txt');
  const tag = read(engine, real, TEXT);
  const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: 'a.txt', file_hash: tag, ops: 'delete 6' }] }), callContext());
  assert.match(out.structured.results![0]!.diff ?? '', /-six/);
  assert.throws(() => fsEditTool.input.parse({ targets: [{ path: 'a.txt', file_hash: tag, ops: 'delete 1' }], reply: 'tiny' }));
});
