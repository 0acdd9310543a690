// What recordChange puts in the durable history, seen from a later engine (a restart, or the next
// process): fs_rollback undoes a boundary write and recreates a deleted file; binary content is
// kept byte for byte for the log (not offered to fs_rollback); a rename moves the history with the file.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { mergeConfig } from '../../src/core/config/config.js';
import { runTool } from '../../src/mcp/server.js';
import { createEngine, engineForCall, type Engine } from '../../src/tools/engine.js';
import { fileWriteTool } from '../../src/tools/boundary/file-write.js';
import { fsRollbackTool } from '../../src/tools/hashline/fs-rollback.js';
import { computeTag } from '../../src/core/text/tag.js';
import { recordChange, recordChangeTags, recordRename } from '../../src/tools/record-change.js';
import { callContext } from '../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
let state: string | undefined;
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.history.close();
  await sb?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
});

async function setup(files: Record<string, string | Uint8Array>) {
  sb = await makeSandbox(files);
  state = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] });
  return async (): Promise<Engine> => {
    const e = await createEngine(config, { stateDir: state });
    engines.push(e);
    return e;
  };
}

const call = () => ({ ...callContext(), client: { id: 'c1' } });
const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');
const origin = { tool: 'file_delete', client: 'c1', batch: 'b1' };

test('a boundary write is undone by fs_rollback in a later engine', async () => {
  const open = await setup({ 'a.txt': 'before\n' });
  const a = await open();
  const w = await runTool(a, fileWriteTool, { files: { 'a.txt': { content: 'after\n', expectedSha256: sha('before\n') } } }, call());
  assert.equal(w.isError, undefined, JSON.stringify(w.content));
  await a.history.close();
  const b = await open();
  const r = await runTool(b, fsRollbackTool, { path: 'a.txt', hash: '' }, call());
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  assert.equal(readFileSync(path.join(sb!.root, 'a.txt'), 'utf8'), 'before\n');
  const feed = await b.history.query!.feed();
  assert.deepEqual(feed.map((f) => [f.op, f.tool]), [['made', 'fs_rollback'], ['made', 'file_write'], ['seen', 'file_write']]);
});

test('a deleted file is recreated by fs_rollback after a restart; the deletion is logged', async () => {
  const open = await setup({ 'gone.txt': 'keep me\n' });
  const a = await open();
  const real = path.join(a.guard.realRoot, 'gone.txt');
  // what a delete tool does: remove the file, then record the change
  const before = readFileSync(real);
  unlinkSync(real);
  recordChange(engineForCall(a, origin), real, before, undefined);
  await a.history.close();
  const b = await open();
  const r = await runTool(b, fsRollbackTool, { path: 'gone.txt', hash: '' }, call());
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  assert.equal(readFileSync(real, 'utf8'), 'keep me\n');
  const ops = (await b.history.query!.timeline(real)).map((f) => [f.op, f.tool]);
  assert.deepEqual(ops, [['made', 'fs_rollback'], ['delete', 'file_delete'], ['seen', 'file_delete']]);
});

test('binary content is kept byte for byte for the log, and not offered to fs_rollback', async () => {
  const bin = Uint8Array.from([0, 1, 2, 0xff, 0xfe, 13, 10, 0, 42]);
  const open = await setup({ 'b.bin': bin });
  const a = await open();
  const real = path.join(a.guard.realRoot, 'b.bin');
  unlinkSync(real);
  recordChange(engineForCall(a, origin), real, bin, undefined);
  const [del, kept] = await a.history.query!.timeline(real);
  assert.equal(del!.op, 'delete');
  assert.deepEqual([kept!.op, kept!.kind, kept!.tag, kept!.size, kept!.sha256], ['seen', 'bytes', null, bin.length, sha(bin)]);
  assert.deepEqual(new Uint8Array((await a.history.query!.content(kept!.id))!.bytes), bin);
  assert.deepEqual(a.history.versions(real), []);
});

test('a rename moves the history with the file and is logged at both paths', async () => {
  const open = await setup({ 'old.txt': 'v1\n' });
  const a = await open();
  const from = path.join(a.guard.realRoot, 'old.txt');
  const to = path.join(a.guard.realRoot, 'new.txt');
  a.history.record(from, 'v0\n', { kind: 'made' });
  a.history.record(from, 'v1\n', { kind: 'made' });
  renameSync(from, to);
  recordRename(engineForCall(a, { ...origin, tool: 'file_rename' }), from, to);
  await a.history.close();
  const b = await open();
  assert.deepEqual(b.history.versions(to).map((v) => v.text), ['v0\n', 'v1\n']);
  assert.deepEqual(b.history.versions(from), []);
  const [atNew] = await b.history.query!.timeline(to);
  assert.deepEqual([atNew!.op, atNew!.detail, atNew!.tool], ['rename', from, 'file_rename']);
  const [atOld] = await b.history.query!.timeline(from);
  assert.deepEqual([atOld!.op, atOld!.detail, atOld!.sha256], ['rename', to, null]);
  writeFileSync(to, 'v2\n');
  const r = await runTool(b, fsRollbackTool, { path: 'new.txt', hash: '' }, call());
  // the disk text is not a version: rollback "" refuses, naming the known versions
  assert.equal(r.isError, true);
});

test('recordChangeTags gives the tag each text was kept under, the same whatever the bytes\' shape, and a later engine reads the same versions', async () => {
  const open = await setup({ 'lf.txt': 'x\n', 'crlf.txt': 'x\n', 'bom.txt': 'x\n' });
  const a = await open();
  const shapes: Record<string, string> = { 'lf.txt': 'one\ntwo \n', 'crlf.txt': 'one\r\ntwo \r\n', 'bom.txt': '\uFEFFone\ntwo \n' };
  for (const [name, body] of Object.entries(shapes)) {
    const real = path.join(a.guard.realRoot, name);
    const tags = recordChangeTags(engineForCall(a, origin), real, Buffer.from('x\n'), Buffer.from(body));
    assert.equal(tags.after, computeTag('one\ntwo \n'), name);
    assert.equal(tags.before, computeTag('x\n'), name);
  }
  await a.history.close();
  const b = await open();
  for (const name of Object.keys(shapes)) {
    const versions = b.history.versions(path.join(b.guard.realRoot, name));
    assert.deepEqual(versions.map((v) => [v.text, v.tag]), [['x\n', computeTag('x\n')], ['one\ntwo \n', computeTag('one\ntwo \n')]], name);
  }
  const [made] = await b.history.query!.timeline(path.join(b.guard.realRoot, 'lf.txt'));
  assert.equal(made!.sha256, sha('one\ntwo \n'));
});

test('recordChangeTags with the SHA-256 of both sides in hand keeps the same versions and rows as hashing them, whatever the bytes\' shape', async () => {
  const open = await setup({ 'k.txt': 'x\n' });
  const a = await open();
  const real = path.join(a.guard.realRoot, 'k.txt');
  const e = engineForCall(a, origin);
  // plain UTF-8, CRLF, a BOM, bytes that are not UTF-8: each written, then the start of the next change
  const bodies = [Buffer.from('one\ntwo\n'), Buffer.from('one\r\ntwo\r\n'), Buffer.from('\uFEFFthree\n'), Buffer.from([0x66, 0xff, 0x0a]), Buffer.from('four\n')];
  let before: Buffer = Buffer.from('x\n');
  for (const after of bodies) {
    // fresh copies: the history must go by the hashes, not by the arrays it saw
    const tags = recordChangeTags(e, real, Buffer.from(before), Buffer.from(after), undefined, { before: { sha256: sha(before) }, after: { sha256: sha(after) } });
    const [made] = await a.history.query!.timeline(real);
    assert.equal(made!.op, 'made');
    assert.equal(tags.after, a.history.head(real)!.tag);
    // the version's text is the decoding of the bytes (LF, no BOM, invalid bytes escaped), its row the bytes' hash
    const lf = new TextDecoder().decode(after).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    if (after[1] !== 0xff) assert.equal(a.history.head(real)!.text, lf);
    before = after;
  }
  await a.history.close();
  const b = await open();
  assert.deepEqual(
    b.history.versions(real).map((v) => v.text),
    ['x\n', 'one\ntwo\n', 'three\n', 'f\udcff\n', 'four\n'],
  );
  // every text version's row names the SHA-256 of its text's UTF-8, as when the history hashes it
  for (const row of await b.history.query!.timeline(real)) {
    if (row.kind !== 'text') continue;
    const v = (await b.history.query!.content(row.id))!;
    assert.equal(row.sha256, sha(v.bytes));
  }
});
