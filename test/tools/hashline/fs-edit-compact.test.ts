// fs_edit's opt-in compact reply: an edit applied as sent answers with its new tag and the changed
// lines of the new file instead of the diff (without the path when the call has one target); a
// merged stale edit still carries its diff; the default reply is unchanged (seed 000: the fresh
// tag and a 3-line-context diff).

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as msg from '../../../src/core/messages/edit.js';
import { computeTag, formatHeader } from '../../../src/core/text/tag.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { callContext, sandboxedEngines } from '../../helpers/engine.js';

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
  assert.deepEqual(r, { path: 'a.txt', file_hash: computeTag(after), sha256: createHash('sha256').update(after).digest('hex'), header: formatHeader('a.txt', computeTag(after)), warnings: [], first_changed_line: 2 });
  // one target: the path the caller just sent is not repeated, the tag and the span share a line
  assert.equal(out.text, `#${computeTag(after)} changed lines 2-6 (+3 -3)`);
  assert.equal(msg.compactSpan(2, 6, 3, 3), 'changed lines 2-6 (+3 -3)');
  assert.equal(msg.compactSpan(4, 4, 0, 2), 'changed line 4 (+0 -2)');
});

test('compact with several targets: each result keeps its ¶path#TAG header; warnings follow their line', async () => {
  const { sb, engine } = await setup({ 'a.txt': TEXT, 'b.txt': TEXT });
  const tags = ['a.txt', 'b.txt'].map((f) => read(engine, path.join(sb.root, f), TEXT));
  const out = await fsEditTool.run(
    engine,
    fsEditTool.input.parse({
      targets: [
        { path: 'a.txt', file_hash: tags[0]!, ops: 'insert after 1:\n+1.5' },
        // a bare row is auto-prefixed with a warning
        { path: 'b.txt', file_hash: tags[1]!, ops: 'replace 6:\nSIX' },
      ],
      reply: 'compact',
    }),
    callContext(),
  );
  const a = 'one\n1.5\ntwo\nthree\nfour\nfive\nsix\n';
  const b = 'one\ntwo\nthree\nfour\nfive\nSIX\n';
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), a);
  assert.equal(await fsp.readFile(path.join(sb.root, 'b.txt'), 'utf8'), b);
  const [ra, rb] = out.structured.results!;
  assert.equal(rb!.warnings.length, 1);
  assert.equal(out.text, `${formatHeader('a.txt', computeTag(a))} changed line 2 (+1 -0)\n\n${formatHeader('b.txt', computeTag(b))} changed line 6 (+1 -1)\n${rb!.warnings[0]}`);
  assert.equal(ra!.header, formatHeader('a.txt', computeTag(a)));
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

test('compact: the changed lines of the new file, per kind of edit', async () => {
  const cases: Array<[string, string]> = [
    ['replace 3:\n+THREE', 'changed line 3 (+1 -1)'],
    ['replace 2..4:\n+X', 'changed line 2 (+1 -3)'],
    ['insert after 2:\n+2.5', 'changed line 3 (+1 -0)'],
    // a deletion names the line that now follows it, or the one before it at the end of the file
    ['delete 3', 'changed line 3 (+0 -1)'],
    ['delete 6', 'changed line 5 (+0 -1)'],
    ['insert head:\n+zero', 'changed line 1 (+1 -0)'],
    ['replace 1:\n+ONE\nreplace 6:\n+SIX', 'changed lines 1-6 (+2 -2)'],
  ];
  for (const [ops, want] of cases) {
    const { sb, engine } = await setup({ 'a.txt': TEXT });
    const tag = read(engine, path.join(sb.root, 'a.txt'), TEXT);
    const out = await fsEditTool.run(engine, fsEditTool.input.parse({ targets: [{ path: 'a.txt', file_hash: tag, ops }], reply: 'compact' }), callContext());
    const after = await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8');
    assert.equal(out.text, `#${computeTag(after)} ${want}`, ops);
  }
});
