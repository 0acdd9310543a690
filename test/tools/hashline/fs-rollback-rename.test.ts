// fs_rollback after file_rename: the rename is the file's last change, so "" (or the tag on disk)
// moves the file back to its old name, unchanged, with its history; an edit after the rename makes
// the edit the last change; an old name taken since is refused with nothing moved. Over the real
// tools, real files and the durable store (the test's XDG_STATE_HOME), also across a restart.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { createEngine } from '../../../src/tools/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';
import * as msg from '../../../src/core/messages/rollback.js';
import { computeTag, formatHeader } from '../../../src/core/text/tag.js';
import type { Engine } from '../../../src/tools/engine.js';
import { fileRenameTool } from '../../../src/tools/boundary/file-rename.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../../src/tools/hashline/fs-read.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { callContext as call, engineFor, sandboxedEngines } from '../../helpers/engine.js';

const setup = sandboxedEngines();
const V1 = 'one\ntwo\n';
const V2 = 'one\nTWO\n';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const read = (engine: Engine, p: string) => fsReadTool.run(engine, fsReadTool.input.parse({ targets: [{ path: p }] }), call());
const rollback = (engine: Engine, p: string, hash = '') => fsRollbackTool.run(engine, fsRollbackTool.input.parse({ path: p, hash }), call());
const rename = (engine: Engine, from: string, to: string, text: string) =>
  fileRenameTool.run(engine, fileRenameTool.input.parse({ files: { [from]: { destination: to, expectedSha256: sha(text) } } }), call());

/** a.txt edited V1 → V2, then renamed to sub/b.txt. */
async function renamed() {
  const { sb, engine } = await setup({ 'a.txt': V1 });
  await read(engine, 'a.txt');
  await fsEditTool.run(engine, { targets: [{ path: 'a.txt', file_hash: computeTag(V1), ops: 'replace 2:\n+TWO' }] }, call());
  await rename(engine, 'a.txt', 'sub/b.txt', V2);
  await engine.history.flush();
  return { sb, engine, a: path.join(sb.root, 'a.txt'), b: path.join(sb.root, 'sub', 'b.txt') };
}

test('"" after a rename moves the file back, unchanged, and says so; its versions go with it', async () => {
  const { engine, a, b } = await renamed();
  const r = await rollback(engine, 'sub/b.txt');
  assert.deepEqual(r.structured, {
    path: 'a.txt', file_hash: computeTag(V2), header: formatHeader('a.txt', computeTag(V2)), replaced_hash: computeTag(V2),
    warning: msg.renameUndone('sub/b.txt', 'a.txt'),
  });
  assert.match(r.text, /the rename is undone, the file is back at `a.txt`/);
  assert.equal(await fsp.readFile(a, 'utf8'), V2);
  await assert.rejects(fsp.stat(b), { code: 'ENOENT' });
  // the last change of a.txt is now the rename back: "" walks on to the edit before it
  const before = await rollback(engine, 'a.txt', computeTag(V1));
  assert.equal(before.structured.path, 'a.txt');
  assert.equal(await fsp.readFile(a, 'utf8'), V1);
  await engine.history.close();
});

test('the tag on disk (the version before the rename) also undoes it, after a restart', async () => {
  const { sb, engine, a } = await renamed();
  await engine.history.close();
  const again = await engineFor(sb.root);
  const r = await rollback(again, 'sub/b.txt', computeTag(V2));
  assert.equal(r.structured.path, 'a.txt');
  assert.equal(await fsp.readFile(a, 'utf8'), V2);
  await again.history.close();
});

test('an edit after the rename is the last change: "" undoes the edit, not the rename', async () => {
  const { engine, a, b } = await renamed();
  await fsEditTool.run(engine, { targets: [{ path: 'sub/b.txt', file_hash: computeTag(V2), ops: 'insert tail:\n+three' }] }, call());
  const r = await rollback(engine, 'sub/b.txt');
  assert.equal(r.structured.path, 'sub/b.txt');
  assert.equal(r.structured.warning, undefined);
  assert.equal(await fsp.readFile(b, 'utf8'), V2);
  await assert.rejects(fsp.stat(a), { code: 'ENOENT' });
  await engine.history.close();
});

test('an old name taken since is refused and nothing moves', async () => {
  const { engine, a, b } = await renamed();
  await fsp.writeFile(a, 'other\n');
  await assert.rejects(rollback(engine, 'sub/b.txt'), (e: { code?: string; message?: string }) => {
    assert.equal(e.code, 'already_exists');
    assert.equal(e.message, msg.renameNotUndone('sub/b.txt', 'a.txt'));
    return true;
  });
  assert.equal(await fsp.readFile(a, 'utf8'), 'other\n');
  assert.equal(await fsp.readFile(b, 'utf8'), V2);
  await engine.history.close();
});

test('the in-memory history (--history memory) undoes a rename too', async () => {
  const sb = await makeSandbox({ 'a.txt': V1 });
  try {
    const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [], history: 'memory' }));
    assert.equal(engine.history.status().backend, 'memory');
    await read(engine, 'a.txt');
    await rename(engine, 'a.txt', 'b.txt', V1);
    const r = await rollback(engine, 'b.txt');
    assert.equal(r.structured.warning, msg.renameUndone('b.txt', 'a.txt'));
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), V1);
    await assert.rejects(fsp.stat(path.join(sb.root, 'b.txt')), { code: 'ENOENT' });
  } finally {
    await sb.cleanup();
  }
});
