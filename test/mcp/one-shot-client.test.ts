// A one-shot client (a new `hashline mcp` process per call, as the MCP Inspector's CLI runs) over the
// official SDK client: it reads in one process and edits in the next with the durable history, and
// the collision safety holds across processes (the stored text is compared, never the tag alone).
// With `--history memory` the next process does not know the tag, and the refusal says what to do.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import * as msg from '../../src/core/messages/edit.js';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

/** One call in a process of its own. */
async function oneShot(root: string, name: string, args: Record<string, unknown>, extra: string[] = []) {
  const s = await connectMcp(['--root', root, ...extra]);
  try {
    return await s.call(name, args);
  } finally {
    await s.close();
  }
}

const tagOf = (r: Awaited<ReturnType<typeof oneShot>>) => (r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
const warningsOf = (r: Awaited<ReturnType<typeof oneShot>>) => (r.structuredContent as { results: Array<{ warnings: string[] }> }).results[0]!.warnings;

test('read in one process, edit in the next: the tag is accepted because its text is in the store', async () => {
  sb = await makeSandbox({ 'a.txt': 'one\ntwo\nthree\n' });
  const read = await oneShot(sb.root, 'fs_read', { targets: [{ path: 'a.txt' }] });
  const tag = tagOf(read);
  const edit = await oneShot(sb.root, 'fs_edit', { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 2:\n+TWO' }] });
  assert.equal(edit.isError, undefined, textOf(edit));
  assert.deepEqual(warningsOf(edit), []);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');

  // the edit's own tag works in a third process; a change made meanwhile by someone else is merged
  await fsp.writeFile(path.join(sb.root, 'a.txt'), 'one\nTWO\nthree\nfour (added outside)\n');
  const merged = await oneShot(sb.root, 'fs_edit', { targets: [{ path: 'a.txt', file_hash: tagOf(edit), ops: 'replace 1:\n+ONE' }] });
  assert.equal(merged.isError, undefined, textOf(merged));
  assert.deepEqual(warningsOf(merged), [msg.RECOVERED_PREVIOUS_READ]);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'ONE\nTWO\nthree\nfour (added outside)\n');

  // and a rollback in a fourth process undoes exactly that edit
  const back = await oneShot(sb.root, 'fs_rollback', { path: 'a.txt', hash: '' });
  assert.equal(back.isError, undefined, textOf(back));
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'one\nTWO\nthree\nfour (added outside)\n');
});

test('across processes a colliding tag is never trusted: the stored text is compared', async () => {
  const make = (n: number) => `alpha\nbeta\nvalue = ${n}\ngamma\ndelta\nepsilon\n`;
  const byTag = new Map<string, number>();
  let pair: [number, number] | undefined;
  for (let n = 0; pair === undefined; n++) {
    const t = computeTag(make(n));
    const prior = byTag.get(t);
    if (prior !== undefined) pair = [prior, n];
    else byTag.set(t, n);
  }
  sb = await makeSandbox({ 'c.txt': make(pair[0]) });
  const tag = tagOf(await oneShot(sb.root, 'fs_read', { targets: [{ path: 'c.txt' }] }));
  // someone else writes a different text with the same tag
  await fsp.writeFile(path.join(sb.root, 'c.txt'), make(pair[1]));
  assert.equal(computeTag(make(pair[1])), tag);
  const edit = await oneShot(sb.root, 'fs_edit', { targets: [{ path: 'c.txt', file_hash: tag, ops: 'replace 3:\n+value = 999' }] });
  assert.equal(edit.isError, true);
  assert.match(textOf(edit), /Edit rejected: file changed between read and edit\./);
  assert.equal(await fsp.readFile(path.join(sb.root, 'c.txt'), 'utf8'), make(pair[1]), 'nothing written');
});

test('a tag no process recorded is refused, and the message says what to do', async () => {
  sb = await makeSandbox({ 'a.txt': 'x\n' });
  const invented = computeTag('something never read\n');
  const edit = await oneShot(sb.root, 'fs_edit', { targets: [{ path: 'a.txt', file_hash: invented, ops: 'replace 1:\n+y' }] });
  assert.equal(edit.isError, true);
  const cause = (edit.structuredContent as { cause: string }).cause;
  assert.equal(cause, msg.editFailed('a.txt', msg.notFromSession(invented, computeTag('x\n'), 'durable')));
  assert.match(cause, /Call `fs_read` on the file and use the TAG of its ¶path#TAG header\./);
});

test('with --history memory the next process does not know the tag; the refusal names the way out', async () => {
  sb = await makeSandbox({ 'a.txt': 'one\n' });
  const tag = tagOf(await oneShot(sb.root, 'fs_read', { targets: [{ path: 'a.txt' }] }, ['--history', 'memory']));
  const edit = await oneShot(sb.root, 'fs_edit', { targets: [{ path: 'a.txt', file_hash: tag, ops: 'replace 1:\n+ONE' }] }, ['--history', 'memory']);
  assert.equal(edit.isError, true);
  const cause = (edit.structuredContent as { cause: string }).cause;
  assert.equal(cause, msg.editFailed('a.txt', msg.notFromSession(tag, tag, 'memory')));
  assert.match(cause, /start it with `--history sqlite`/);
  assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'one\n');
});

test('a server whose Node has no SQLite starts on memory and says so on stderr, once', async () => {
  sb = await makeSandbox({ 'a.txt': 'one\n' });
  const saved = process.env.HASHLINE_SQLITE_MODULE;
  process.env.HASHLINE_SQLITE_MODULE = 'node:no-such-sqlite';
  try {
    const s = await connectMcp(['--root', sb.root]);
    try {
      const read = await s.call('fs_read', { targets: [{ path: 'a.txt' }] });
      const edit = await s.call('fs_edit', { targets: [{ path: 'a.txt', file_hash: tagOf(read), ops: 'replace 1:\n+ONE' }] });
      assert.equal(edit.isError, undefined, textOf(edit));
      const lines = s.stderr().split('\n').filter((l) => l.includes('SQLite history unavailable'));
      assert.equal(lines.length, 1, s.stderr());
      assert.match(lines[0]!, /^hashline: SQLite history unavailable \(.*\); using the in-memory history$/);
    } finally {
      await s.close();
    }
  } finally {
    if (saved === undefined) delete process.env.HASHLINE_SQLITE_MODULE;
    else process.env.HASHLINE_SQLITE_MODULE = saved;
  }
});
