// fs_rollback through its tool entry: every row of the restore table, every warning and error with
// its exact text, the disk's BOM and line endings, recreation of a deleted file, and undo through
// `replaced_hash`.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import * as msg from '../../../src/core/messages/rollback.js';
import { computeTag, formatHeader } from '../../../src/core/text/tag.js';
import type { Engine } from '../../../src/tools/engine.js';
import { fsEditTool } from '../../../src/tools/hashline/fs-edit.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { callContext, engineFor } from '../../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const call = callContext;

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

const V1 = 'one\ntwo\n';
const V2 = 'one\nTWO\n';
const V3 = 'one\nTWO\nthree\n';

/** A file read as V1, then edited to V2 and V3 through fs_edit. */
async function setup(initial: string | Uint8Array = V1): Promise<{ engine: Engine; p: string; rel: string }> {
  sb = await makeSandbox({ 'f.txt': initial });
  const engine = await engineFor(sb.root);
  const p = path.join(sb.root, 'f.txt');
  engine.history.record(p, V1);
  const e1 = await fsEditTool.run(engine, { targets: [{ path: 'f.txt', file_hash: computeTag(V1), ops: 'replace 2:\n+TWO' }] }, call());
  await fsEditTool.run(engine, { targets: [{ path: 'f.txt', file_hash: e1.structured.results![0]!.file_hash, ops: 'insert tail:\n+three' }] }, call());
  return { engine, p, rel: 'f.txt' };
}

const rollback = (engine: Engine, p: string, hash: string) => fsRollbackTool.run(engine, fsRollbackTool.input.parse({ path: p, hash }), call());

async function rejects(promise: Promise<unknown>, code: string, message: string) {
  await assert.rejects(promise, (e: { code?: string; message?: string }) => {
    assert.equal(e.code, code);
    assert.equal(e.message, message);
    return true;
  });
}

test('rollback "" restores the version before the current one; replaced_hash undoes it', async () => {
  const { engine, p } = await setup();
  const r = await rollback(engine, 'f.txt', '');
  assert.deepEqual(r.structured, { path: 'f.txt', file_hash: computeTag(V2), header: formatHeader('f.txt', computeTag(V2)), replaced_hash: computeTag(V3) });
  assert.equal(await fsp.readFile(p, 'utf8'), V2);
  assert.ok(r.text.startsWith(formatHeader('f.txt', computeTag(V2))));
  // walking back again
  await rollback(engine, 'f.txt', '');
  assert.equal(await fsp.readFile(p, 'utf8'), V1);
  await rejects(rollback(engine, 'f.txt', ''), 'no_previous_version', msg.noPreviousVersion('f.txt', 3));
  assert.equal(msg.noPreviousVersion('f.txt', 3), 'no previous version for `f.txt`; the current version is the oldest in the rollback window (3 versions retained)');
  // undo the restores: go back to V3 by its tag (the replaced_hash of the first restore)
  const undo = await rollback(engine, 'f.txt', r.structured.replaced_hash);
  assert.equal(undo.structured.warning, undefined);
  assert.equal(await fsp.readFile(p, 'utf8'), V3);
});

test('rollback to an explicit version; unknown and current versions are errors', async () => {
  const { engine, p } = await setup();
  const r = await rollback(engine, 'f.txt', computeTag(V1).toLowerCase());
  assert.equal(r.structured.file_hash, computeTag(V1));
  assert.equal(await fsp.readFile(p, 'utf8'), V1);
  await rejects(rollback(engine, 'f.txt', computeTag(V1)), 'already_at_version', msg.alreadyAtVersion('f.txt', computeTag(V1)));
  assert.equal(msg.alreadyAtVersion('f.txt', 'ABCD'), '`f.txt` is already at version `ABCD`; nothing to restore');
  // an explicit restore makes the restored version the newest: known versions are listed oldest first
  const known = [...new Set([computeTag(V2), computeTag(V3), computeTag(V1)])];
  assert.deepEqual(engine.history.versions(p).map((v) => v.tag), known);
  const unknown = ['0000', '0001'].find((t) => !known.includes(t))!;
  await rejects(rollback(engine, 'f.txt', unknown), 'version_not_found', msg.versionNotFound('f.txt', unknown, known));
  assert.match(msg.versionNotFound('f.txt', '0000', ['1A2B', '3C4D']), /^version `0000` not found in rollback history for `f.txt`; known versions: \["1A2B", "3C4D"\]$/);
});

test('no history for the path', async () => {
  sb = await makeSandbox({ 'g.txt': 'x\n' });
  const engine = await engineFor(sb.root);
  await rejects(rollback(engine, 'g.txt', ''), 'history_missing', msg.noHistory('g.txt'));
  assert.equal(msg.noHistory('g.txt'), 'no rollback history for `g.txt`; the file must be read or written during this session before rollback is available');
});

test('external change: "" refuses, an explicit hash restores with a warning and records the external text', async () => {
  const { engine, p } = await setup();
  await fsp.writeFile(p, 'external\n');
  const ext = computeTag('external\n');
  const known = [...new Set([computeTag(V1), computeTag(V2), computeTag(V3)])];
  await rejects(rollback(engine, 'f.txt', ''), 'modified_externally', msg.modifiedExternallyError('f.txt', ext, known));
  const r = await rollback(engine, 'f.txt', computeTag(V2));
  assert.equal(r.structured.warning, msg.modifiedExternallyWarning('f.txt', ext, computeTag(V3)));
  assert.equal(
    r.structured.warning,
    `\`f.txt\` was modified externally since the last session write (disk \`${ext}\` differs from last session state \`${computeTag(V3)}\`); external changes will be replaced`,
  );
  assert.equal(r.structured.replaced_hash, ext);
  assert.equal(await fsp.readFile(p, 'utf8'), V2);
  // the external text was kept: replaced_hash brings it back
  await rollback(engine, 'f.txt', ext);
  assert.equal(await fsp.readFile(p, 'utf8'), 'external\n');
});

test('a deleted file is recreated: from an explicit version, or from the last session state', async () => {
  const { engine, p } = await setup();
  await fsp.rm(p);
  let r = await rollback(engine, 'f.txt', computeTag(V1));
  assert.deepEqual(r.structured, {
    path: 'f.txt',
    file_hash: computeTag(V1),
    header: formatHeader('f.txt', computeTag(V1)),
    replaced_hash: '',
    warning: msg.recreatedFrom('f.txt', computeTag(V1)),
  });
  assert.equal(msg.recreatedFrom('f.txt', 'ABCD'), '`f.txt` no longer exists on disk; it will be recreated from version `ABCD`');
  assert.equal(await fsp.readFile(p, 'utf8'), V1);
  await fsp.rm(p);
  r = await rollback(engine, 'f.txt', '');
  assert.equal(r.structured.warning, msg.recreatedLastState('f.txt', computeTag(V1)));
  assert.equal(await fsp.readFile(p, 'utf8'), V1);
});

test('the restore is written with the current disk BOM and CRLF endings', async () => {
  const { engine, p } = await setup(V1);
  const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(V3.replace(/\n/g, '\r\n'))]);
  await fsp.writeFile(p, crlf); // same text as V3 for the session: BOM and CRLF are not content
  const r = await rollback(engine, 'f.txt', '');
  assert.equal(r.structured.warning, undefined);
  assert.deepEqual([...(await fsp.readFile(p))], [0xef, 0xbb, 0xbf, ...Buffer.from('one\r\nTWO\r\n')]);
});

test('rollback outside the root is refused', async () => {
  const { engine } = await setup();
  await assert.rejects(rollback(engine, '../outside/secret.txt', ''), (e: { message?: string }) => /^restore permission denied for/.test(e.message ?? ''));
  assert.equal(await fsp.readFile(path.join(sb!.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});

test('bytes that are not UTF-8 come back exactly after an edit is rolled back', async () => {
  const raw = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nsecond\n'), Buffer.from([0x99, 0xff]), Buffer.from('\n')]);
  sb = await makeSandbox({ 'enc.txt': raw });
  const engine = await engineFor(sb.root);
  const p = path.join(sb.root, 'enc.txt');
  const text = 'caf\uDCE9\nsecond\n\uDC99\uDCFF\n';
  engine.history.record(p, text);
  const e = await fsEditTool.run(engine, { targets: [{ path: 'enc.txt', file_hash: computeTag(text), ops: 'replace 2:\n+SECOND' }] }, call());
  assert.equal(e.isError, undefined, e.text);
  assert.deepEqual([...(await fsp.readFile(p))], [...Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('\nSECOND\n'), Buffer.from([0x99, 0xff]), Buffer.from('\n')])]);
  await rollback(engine, 'enc.txt', '');
  assert.deepEqual([...(await fsp.readFile(p))], [...raw]);
});

test('an omitted hash is the same as "" (a client that cannot send an empty string)', async () => {
  const { engine, p } = await setup();
  const r = await fsRollbackTool.run(engine, fsRollbackTool.input.parse({ path: 'f.txt' }), call());
  assert.equal(r.structured.file_hash, computeTag(V2));
  assert.equal(r.structured.replaced_hash, computeTag(V3));
  assert.equal(await fsp.readFile(p, 'utf8'), V2);
});
