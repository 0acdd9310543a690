// fs_edit through its tool entry on a real engine and real files: results, what is written (bytes,
// endings, BOM, mode), history, wire errors, EditBatchError, stale tags and block ops.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as msg from '../../../src/core/messages/edit.js';
import { computeTag, formatHeader } from '../../../src/core/text/tag.js';
import { generatedRefusal } from '../../../src/core/generated.js';
import type { Engine } from '../../../src/tools/engine.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { callContext, sandboxedEngines } from '../../helpers/engine.js';
import type { Sandbox } from '../../helpers/tmp-tree.js';

const call = callContext;

const setup = sandboxedEngines();

/** What fs_read does: record the LF text and the lines shown; returns the tag. */
function readAs(engine: Engine, sandbox: Sandbox, rel: string, text: string): string {
  const real = path.join(sandbox.root, rel);
  const tag = engine.history.record(real, text)!;
  engine.history.markSeen(real, text, text.split('\n').map((_, i) => i + 1));
  return tag;
}

function run(engine: Engine, targets: Array<{ path: string; file_hash: string; ops: string }>) {
  return fsEditTool.run(engine, fsEditTool.input.parse({ targets }), call());
}

const bytesOf = async (p: string) => [...(await fsp.readFile(p))];

test('fs_edit: a fresh tag applies; the result has the new tag, first changed line and diff', async () => {
  const { sb, engine } = await setup({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' });
  const tag = readAs(engine, sb, 'src/a.ts', 'one\ntwo\nthree\nfour\n');
  const out = await run(engine, [{ path: 'src/a.ts', file_hash: tag, ops: 'replace 2:\n+TWO\ninsert tail:\n+five' }]);
  assert.equal(out.isError, undefined);
  const after = 'one\nTWO\nthree\nfour\nfive\n';
  assert.equal(await fsp.readFile(path.join(sb.root, 'src/a.ts'), 'utf8'), after);
  const r = out.structured.results![0]!;
  assert.deepEqual(r, {
    path: 'src/a.ts',
    file_hash: computeTag(after),
    sha256: createHash('sha256').update(after).digest('hex'),
    header: formatHeader('src/a.ts', computeTag(after)),
    warnings: [],
    first_changed_line: 2,
    diff: '--- src/a.ts\n+++ src/a.ts\n@@ -1,4 +1,5 @@\n one\n-two\n+TWO\n three\n four\n+five\n',
  });
  assert.ok(out.text.startsWith(r.header));
  const real = path.join(sb.root, 'src/a.ts');
  assert.deepEqual(engine.history.versions(real).map((x) => x.text), ['one\ntwo\nthree\nfour\n', after]);
  // the new tag is good for the next edit without a re-read: direct, no warnings
  const again = await run(engine, [{ path: 'src/a.ts', file_hash: r.file_hash, ops: 'delete 1' }]);
  assert.deepEqual(again.structured.results![0]!.warnings, []);
  assert.equal(await fsp.readFile(real, 'utf8'), 'TWO\nthree\nfour\nfive\n');
});

test('fs_edit: CRLF, BOM, mixed endings, non-UTF-8 bytes and a missing final newline are kept', async () => {
  const raw = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('first\r\nsecond\n'),
    Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]), // "caf\xe9\r\n" (cp1252)
    Buffer.from('fourth\r\nlast'),
  ]);
  const { sb, engine } = await setup({ 'm.txt': raw });
  const text = 'first\nsecond\ncaf\uDCE9\nfourth\nlast';
  const tag = readAs(engine, sb, 'm.txt', text);
  const out = await run(engine, [{ path: 'm.txt', file_hash: tag, ops: 'replace 2:\n+SECOND\n+extra\ninsert tail:\n+tail' }]);
  assert.equal(out.isError, undefined, out.text);
  const expected = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('first\r\nSECOND\r\nextra\r\n'), // new lines get the file's ending (its first one)
    Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]),
    Buffer.from('fourth\r\nlast\r\ntail'),
  ]);
  assert.deepEqual(await bytesOf(path.join(sb.root, 'm.txt')), [...expected]);
  assert.match(out.structured.results![0]!.diff!, /caf\uFFFD/);
  // replacing the line holding the raw byte is refused
  const tag2 = out.structured.results![0]!.file_hash;
  const bad = await run(engine, [{ path: 'm.txt', file_hash: tag2, ops: 'replace 4:\n+café' }]);
  assert.equal(bad.isError, true);
  assert.equal(bad.structured.code, 'non_utf8_line');
  assert.deepEqual(await bytesOf(path.join(sb.root, 'm.txt')), [...expected]);
});

test('fs_edit: the file mode is kept', async () => {
  const { sb, engine } = await setup({ 'run.sh': '#!/bin/sh\necho hi\n' });
  const p = path.join(sb.root, 'run.sh');
  await fsp.chmod(p, 0o754);
  const tag = readAs(engine, sb, 'run.sh', '#!/bin/sh\necho hi\n');
  await run(engine, [{ path: 'run.sh', file_hash: tag, ops: 'replace 2:\n+echo bye' }]);
  assert.equal((await fsp.stat(p)).mode & 0o777, 0o754);
  assert.equal(await fsp.readFile(p, 'utf8'), '#!/bin/sh\necho bye\n');
});

async function failure(engine: Engine, targets: Array<{ path: string; file_hash: string; ops: string }>) {
  const out = await run(engine, targets);
  assert.equal(out.isError, true);
  return out;
}

test('fs_edit: wire errors (missing tag, missing file, parse error, out of range, generated file, outside the root)', async () => {
  const { sb, engine } = await setup({ 'a.txt': 'a\nb\n', 'gen.ts': '// Code generated by a tool. DO NOT EDIT.\nx\n' });
  const tag = readAs(engine, sb, 'a.txt', 'a\nb\n');
  let out = await failure(engine, [{ path: 'a.txt', file_hash: '', ops: 'delete 1' }]);
  assert.equal(out.structured.cause, msg.editFailed('a.txt', msg.missingTag('a.txt')));
  assert.equal(msg.missingTag('a.txt'), 'Missing hashline snapshot tag for edit to a.txt; use ¶a.txt#tag from your latest read/search output. To create a new file, use the write tool.');
  // a malformed tag is not a missing one: it has its own code and message
  out = await failure(engine, [{ path: 'a.txt', file_hash: 'ZZZZ', ops: 'delete 1' }]);
  assert.equal(out.structured.code, 'tag_malformed');
  assert.equal(out.structured.cause, msg.editFailed('a.txt', msg.malformedTag('a.txt', 'ZZZZ')));
  assert.match(out.structured.cause!, /Malformed hashline snapshot tag "ZZZZ" for edit to a\.txt: a tag is 4 hexadecimal digits/);
  out = await failure(engine, [{ path: 'nope.txt', file_hash: 'ABCD', ops: 'delete 1' }]);
  assert.equal(out.structured.cause, 'edit failed for `nope.txt`: File not found: nope.txt. Use the write tool to create new files.');
  out = await failure(engine, [{ path: 'a.txt', file_hash: tag, ops: 'replace 1:\n-a\n+A' }]);
  assert.equal(out.structured.cause, `failed to parse edit operations for \`a.txt\`: line 2: ${msg.MINUS_ROW}`);
  out = await failure(engine, [{ path: 'a.txt', file_hash: tag, ops: 'delete 4' }]);
  assert.equal(out.structured.cause, 'edit failed for `a.txt`: Line 4 does not exist (file has 2 lines)');
  const genTag = readAs(engine, sb, 'gen.ts', '// Code generated by a tool. DO NOT EDIT.\nx\n');
  out = await failure(engine, [{ path: 'gen.ts', file_hash: genTag, ops: 'delete 2' }]);
  assert.equal(out.structured.cause, msg.editFailed('gen.ts', generatedRefusal('gen.ts', 'do not edit')));
  out = await failure(engine, [{ path: '../outside/secret.txt', file_hash: 'ABCD', ops: 'delete 1' }]);
  assert.match(out.structured.cause!, /^edit failed for `\.\.\/outside\/secret\.txt`: write permissions denied for `\.\.\/outside\/secret\.txt`/);
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'a\nb\n');
});

test('fs_edit: a no-op edit writes nothing and says so', async () => {
  const { sb, engine } = await setup({ 'a.txt': 'a\nb\n' });
  const tag = readAs(engine, sb, 'a.txt', 'a\nb\n');
  const before = (await fsp.stat(path.join(sb.root, 'a.txt'))).mtimeMs;
  const out = await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'replace 2:\n+b' }]);
  const r = out.structured.results![0]!;
  assert.deepEqual(r.warnings, [msg.noChanges('a.txt')]);
  assert.equal(r.diff, undefined);
  assert.equal(r.first_changed_line, undefined);
  assert.equal(r.file_hash, tag);
  assert.equal((await fsp.stat(path.join(sb.root, 'a.txt'))).mtimeMs, before);
  // the empty line a whole read shows after the final newline (`3| `) can be addressed: deleting it is a no-op
  const phantom = await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'delete 3' }]);
  assert.deepEqual(phantom.structured.results![0]!.warnings, [msg.noChanges('a.txt')]);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'a\nb\n');
});

test('fs_edit: EditBatchError: earlier targets stay applied and are listed, later ones are skipped', async () => {
  const { sb, engine } = await setup({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'd.txt': 'd\n' });
  const ta = readAs(engine, sb, 'a.txt', 'a\n');
  const tb = readAs(engine, sb, 'b.txt', 'b\n');
  const tc = readAs(engine, sb, 'c.txt', 'c\n');
  const out = await failure(engine, [
    { path: 'a.txt', file_hash: ta, ops: 'replace 1:\n+A' },
    { path: 'b.txt', file_hash: tb, ops: 'insert tail:\n+B' },
    { path: 'c.txt', file_hash: tc, ops: 'delete 3' },
    { path: 'd.txt', file_hash: 'ABCD', ops: 'delete 1' },
  ]);
  const applied = out.structured.applied!;
  assert.deepEqual(applied.map((r) => [r.path, r.file_hash]), [['a.txt', computeTag('A\n')], ['b.txt', computeTag('b\nB\n')]]);
  assert.deepEqual(Object.keys(out.structured).sort(), ['applied', 'cause', 'code', 'failed_path', 'skipped']);
  assert.equal(out.structured.failed_path, 'c.txt');
  assert.equal(out.structured.cause, 'edit failed for `c.txt`: Line 3 does not exist (file has 1 lines)');
  assert.equal(out.structured.code, 'edit_out_of_range');
  assert.deepEqual(out.structured.skipped, ['d.txt']);
  assert.equal(
    out.text,
    msg.editBatchError(out.structured.cause!, [formatHeader('a.txt', computeTag('A\n')), formatHeader('b.txt', computeTag('b\nB\n'))], ['d.txt']),
  );
  assert.match(out.text, /¶a\.txt#[0-9A-F]{4}\n¶b\.txt#[0-9A-F]{4}/);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'A\n');
  assert.equal(await fsp.readFile(path.join(sb.root, 'b.txt'), 'utf8'), 'b\nB\n');
  assert.equal(await fsp.readFile(path.join(sb.root, 'c.txt'), 'utf8'), 'c\n');
  // the first target failing: nothing applied
  const first = await failure(engine, [{ path: 'c.txt', file_hash: tc, ops: 'delete 5' }, { path: 'a.txt', file_hash: ta, ops: 'delete 1' }]);
  assert.deepEqual(first.structured.applied, []);
  assert.match(first.text, /No file was changed\./);
});

test('fs_edit: a stale tag from an earlier edit of this session is merged; an external change under the edit is refused', async () => {
  const text = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\n';
  const { sb, engine } = await setup({ 'a.txt': text });
  const tag = readAs(engine, sb, 'a.txt', text);
  await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'replace 1:\n+L1' }]);
  const second = await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'replace 6:\n+L6' }]);
  assert.deepEqual(second.structured.results![0]!.warnings, [msg.RECOVERED_EARLIER_SNAPSHOT]);
  const p = path.join(sb.root, 'a.txt');
  assert.equal(await fsp.readFile(p, 'utf8'), 'L1\nl2\nl3\nl4\nl5\nL6\nl7\n');
  // someone else changes line 4; an edit of line 4 with the old tag must not land
  await fsp.writeFile(p, 'L1\nl2\nl3\nTHEIRS\nl5\nL6\nl7\n');
  const refused = await failure(engine, [{ path: 'a.txt', file_hash: second.structured.results![0]!.file_hash, ops: 'replace 4:\n+MINE' }]);
  assert.equal(refused.structured.code, 'edit_rejected');
  assert.match(refused.structured.cause!, /^edit failed for `a\.txt`: Edit rejected: file changed between read and edit\./);
  assert.match(refused.structured.cause!, /\*4\| THEIRS/);
  assert.equal(await fsp.readFile(p, 'utf8'), 'L1\nl2\nl3\nTHEIRS\nl5\nL6\nl7\n');
});

test("fs_edit: after its own edit rewrote the line above, the session's stale edit lands after the rewrite; another session's does not", async () => {
  const text = 'l1\nl2\nl3\nl4\nl5\nl6\n';
  const { sb, engine } = await setup({ 'a.txt': text });
  const p = path.join(sb.root, 'a.txt');
  const tag = readAs(engine, sb, 'a.txt', text);
  // line 3 kept and a row added after it (the way an agent adds a statement below a line)
  await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'replace 3:\n+l3\n+added' }]);
  const afterPrior = 'l1\nl2\nl3\nadded\nl4\nl5\nl6\n';
  // another session with the same old tag: the lines around the gap no longer meet, refused
  const other = await fsEditTool.run(engine, { targets: [{ path: 'a.txt', file_hash: tag, ops: 'insert after 3:\n+theirs' }] }, { ...call(), sessionId: 'other' });
  assert.equal(other.isError, true);
  assert.equal(other.structured.code, 'edit_rejected');
  assert.equal(await fsp.readFile(p, 'utf8'), afterPrior);
  // this session: carried through its own edit
  const mine = await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'insert after 3:\n+mine\ndelete 5' }]);
  assert.equal(mine.isError, undefined, mine.text);
  assert.deepEqual(mine.structured.results![0]!.warnings, [msg.RECOVERED_EARLIER_SNAPSHOT]);
  assert.equal(await fsp.readFile(p, 'utf8'), 'l1\nl2\nl3\nadded\nmine\nl4\nl6\n');
  // and through both of its edits, with the same tag again
  const third = await run(engine, [{ path: 'a.txt', file_hash: tag, ops: 'delete 1\ninsert after 6:\n+end' }]);
  assert.equal(third.isError, undefined, third.text);
  assert.equal(await fsp.readFile(p, 'utf8'), 'l2\nl3\nadded\nmine\nl4\nl6\nend\n');
  // someone else writes the file: the chain is broken, the rules by text decide again
  await fsp.writeFile(p, 'top\nl2\nl3\nadded\nmine\nl4\nl6\nend\n');
  const broken = await failure(engine, [{ path: 'a.txt', file_hash: tag, ops: 'insert after 3:\n+again' }]);
  assert.equal(broken.structured.code, 'edit_rejected');
});

test('fs_edit: block ops resolve through the language registry', async () => {
  const src = 'const a = 1;\n\nfunction f() {\n  return 1;\n}\n\nconst b = 2;\n';
  const { sb, engine } = await setup({ 'x.ts': src });
  const tag = readAs(engine, sb, 'x.ts', src);
  const out = await run(engine, [{ path: 'x.ts', file_hash: tag, ops: 'replace block 3:\n+function f() {\n+  return 2;\n+}' }]);
  assert.equal(out.isError, undefined, out.text);
  assert.equal(await fsp.readFile(path.join(sb.root, 'x.ts'), 'utf8'), 'const a = 1;\n\nfunction f() {\n  return 2;\n}\n\nconst b = 2;\n');
  const t2 = out.structured.results![0]!.file_hash;
  const bad = await failure(engine, [{ path: 'x.ts', file_hash: t2, ops: 'delete block 2' }]);
  assert.equal(bad.structured.cause, `failed to parse edit operations for \`x.ts\`: line 1: ${msg.blockUnresolved('delete', 2)}`);
});

test('fs_edit after a real fs_read of a range: a stale edit outside what was shown merges with the unseen-anchor warning', async () => {
  const { fsReadTool } = await import('../../../src/tools/hashline/fs-read.js');
  const text = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
  const { sb, engine } = await setup({ 'r.txt': text });
  const read = await fsReadTool.run(engine, fsReadTool.input.parse({ targets: [{ path: 'r.txt', line_range: '1-3' }] }), call());
  const tag = read.structured.results![0]!.file_hash;
  assert.equal(tag, computeTag(text));
  const p = path.join(sb.root, 'r.txt');
  await fsp.writeFile(p, 'inserted above\n' + text);
  const out = await run(engine, [{ path: 'r.txt', file_hash: tag, ops: 'replace 2:\n+ROW 2\nreplace 10:\n+ROW 10' }]);
  assert.equal(out.isError, undefined, out.text);
  assert.deepEqual(out.structured.results![0]!.warnings, [msg.RECOVERED_PREVIOUS_READ, msg.unseenAnchors([10])]);
  assert.equal(await fsp.readFile(p, 'utf8'), 'inserted above\n' + text.replace('row 2\n', 'ROW 2\n').replace('row 10\n', 'ROW 10\n'));
});

test('fs_edit: a tag that is not from this session, and head/tail inserts on a stale tag', async () => {
  const { sb, engine } = await setup({ 'a.txt': 'a\nb\n' });
  const tag = readAs(engine, sb, 'a.txt', 'a\nb\n');
  const unknown = ['0000', '0001'].find((t) => t !== tag)!;
  const out = await failure(engine, [{ path: 'a.txt', file_hash: unknown, ops: 'delete 1' }]);
  assert.equal(out.structured.code, 'tag_unknown');
  assert.equal(out.structured.cause, msg.editFailed('a.txt', msg.notFromSession(unknown, tag, 'durable')));
  await fsp.writeFile(path.join(sb.root, 'a.txt'), 'a\nb\nc\n');
  const ok = await run(engine, [{ path: 'a.txt', file_hash: `¶a.txt#${tag}`, ops: 'insert head:\n+top' }]);
  assert.deepEqual(ok.structured.results![0]!.warnings, [msg.HEAD_TAIL_ON_STALE]);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'top\na\nb\nc\n');
});
