// One identity across the families, over the real MCP client (which checks each result against
// the tool's listed output schema): hashline replies carry the file's SHA-256, boundary replies
// its tag, and each works as the other family's guard with no hashing call in between. A name is
// added only while the file still holds the bytes the reply named.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../src/core/text/tag.js';
import { statKeyNow } from '../../src/io/read/read-verified-sync.js';
import { withSha256, withTag } from '../../src/tools/file-identity-fields.js';
import { engineFor } from '../helpers/engine.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const onDisk = async (p: string) => fsp.readFile(path.join(sb.root, p));

before(async () => {
  sb = await makeSandbox({ 'a.txt': 'one\ntwo\n', 'b.txt': 'bee\r\n', 'dir/c.txt': 'sea\n' });
  mcp = await connectMcp(['--root', sb.root, '--history', 'memory']);
  await mcp.client.listTools();
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

type Structured = Record<string, unknown>;
async function call(name: string, args: Record<string, unknown>): Promise<Structured> {
  const r = await mcp.call(name, args);
  assert.notEqual(r.isError, true, JSON.stringify(r.structuredContent));
  return r.structuredContent as Structured;
}
const first = (s: Structured) => (s.results as Array<Record<string, string>>)[0]!;
const data = (s: Structured) => ((s.data as Structured).files as Array<Record<string, string>>)[0]!;

test('fs_read carries the SHA-256: file_write takes it as expectedSha256, no file_hash call', async () => {
  const read = first(await call('fs_read', { targets: [{ path: 'a.txt' }] }));
  assert.equal(read.sha256, sha(await onDisk('a.txt')));
  const written = data(await call('file_write', { files: { 'a.txt': { content: 'one\ntwo\nthree\n', expectedSha256: read.sha256 } } }));
  // and file_write carries the tag: fs_edit takes it as file_hash, no re-read
  assert.equal(written.tag, computeTag('one\ntwo\nthree\n'));
  const edited = first(await call('fs_edit', { targets: [{ path: 'a.txt', file_hash: written.tag, ops: 'replace 3:\n+3' }] }));
  assert.equal(edited.sha256, sha(await onDisk('a.txt')));
  assert.equal(data(await call('file_hash', { filePaths: ['a.txt'] })).tag, edited.file_hash);
});

test('file_read, file_patch, file_chattr and file_rename carry the tag of what they name', async () => {
  const read = data(await call('file_read', { files: [{ filePath: 'b.txt', mode: 'text' }] }));
  assert.equal(read.tag, first(await call('fs_read', { targets: [{ path: 'b.txt' }] })).file_hash);
  const patched = data(await call('file_patch', { files: { 'b.txt': { patchStrategy: 'aider_block', expectedSha256: read.sha256, aiderBlocks: [{ search: 'bee', replace: 'wasp' }] } } }));
  assert.equal(patched.tag, computeTag((await onDisk('b.txt')).toString()));
  const moded = data(await call('file_chattr', { files: { 'b.txt': { chattr: { chmod: 0o600 }, expectedSha256: patched.sha256 } } }));
  assert.equal(moded.tag, patched.tag);
  const renamed = data(await call('file_rename', { files: { 'b.txt': { destination: 'moved/b.txt', expectedSha256: moded.sha256 } } }));
  assert.equal(renamed.tag, patched.tag, 'the tag of the file at its destination');
});

test('fs_write results and fs_list file entries carry the SHA-256', async () => {
  const written = first(await call('fs_write', { targets: [{ path: 'dir/new.txt', text: 'fresh\n' }] }));
  assert.equal(written.sha256, sha('fresh\n'));
  const listed = (await call('fs_list', { path: 'dir' })).entries as Array<Record<string, string>>;
  assert.equal(listed.find((e) => e.path === 'dir/c.txt')!.sha256, sha('sea\n'));
  assert.equal(listed.find((e) => e.path === 'dir/new.txt')!.sha256, sha('fresh\n'));
});

test('a name is added only while the file holds the bytes the reply named', async () => {
  const engine = await engineFor(sb.root);
  const [stale] = await withSha256(engine, [{ path: 'dir/c.txt', file_hash: computeTag('not the text\n') }]);
  assert.equal(stale!.sha256, undefined);
  const [gone] = await withTag(engine, [{ filePath: 'dir/missing.txt', sha256: sha('x') }]);
  assert.equal(gone!.tag, undefined);
  const [other] = await withTag(engine, [{ filePath: 'dir/c.txt', sha256: sha('other bytes') }]);
  assert.equal(other!.tag, undefined);
  const [fresh] = await withTag(engine, [{ filePath: 'dir/c.txt', sha256: sha('sea\n') }]);
  assert.equal(fresh!.tag, computeTag('sea\n'));
});

test('bytes in hand are tagged without a read, only while the file keeps the stat key taken with them', async () => {
  const engine = await engineFor(sb.root);
  const real = path.join(sb.root, 'dir/c.txt');
  const bytes = await onDisk('dir/c.txt');
  const key = statKeyNow(real)!;
  const entry = { filePath: 'dir/c.txt', sha256: sha(bytes) };
  const [held] = await withTag(engine, [entry], undefined, undefined, () => ({ real, bytes, key }));
  assert.equal(held!.tag, computeTag('sea\n'));
  // the file changed since (same size, other bytes): its key moved, so no tag is added
  await fsp.writeFile(real, 'SEA\n');
  const [moved] = await withTag(engine, [entry], undefined, undefined, () => ({ real, bytes, key }));
  assert.equal(moved!.tag, undefined);
  // and the other family's way round: a hashline result gets the SHA-256 of its bytes only while the key holds
  const result = { path: 'dir/c.txt', file_hash: computeTag('sea\n') };
  const [kept] = await withSha256(engine, [result], undefined, () => ({ real, bytes, key }));
  assert.equal(kept!.sha256, undefined);
  const [now] = await withSha256(engine, [result], undefined, () => ({ real, bytes: Buffer.from('SEA\n'), key: statKeyNow(real)! }));
  assert.equal(now!.sha256, sha('SEA\n'));
  await fsp.writeFile(real, bytes);
});

test('fs_read names the bytes it read: read again after a change of the same size, it names the new bytes', async () => {
  await fsp.writeFile(path.join(sb.root, 'dir/same.txt'), 'aaa\n');
  const one = first(await call('fs_read', { targets: [{ path: 'dir/same.txt' }] }));
  assert.equal(one.sha256, sha('aaa\n'));
  assert.equal(first(await call('fs_read', { targets: [{ path: 'dir/same.txt' }] })).sha256, sha('aaa\n'), 'a repeated read (kept lines)');
  await fsp.writeFile(path.join(sb.root, 'dir/same.txt'), 'bbb\n');
  const two = first(await call('fs_read', { targets: [{ path: 'dir/same.txt' }] }));
  assert.equal(two.sha256, sha('bbb\n'));
  assert.equal(two.file_hash, computeTag('bbb\n'));
});
