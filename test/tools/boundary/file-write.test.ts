// file_write over a real `hashline mcp`: byte-exact creates and replaces, compare-and-swap,
// all-or-nothing batches (preflight refusals and failures part-way), modes, chattr, configuration.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
const read = (rel: string) => fsp.readFile(path.join(sb.root, rel));

before(async () => {
  sb = await makeSandbox({ 'a.txt': 'alpha\n', 'run.sh': '#!/bin/sh\necho hi\n', 'plain': 'x' });
  await fsp.chmod(path.join(sb.root, 'run.sh'), 0o750);
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

type Written = { files: Array<{ filePath: string; sha256: string; size: number; created: boolean; previousSha256?: string }> };

test('a new file is created byte for byte (BOM, CRLF, no final newline), with missing parents', async () => {
  const content = '\uFEFFline one\r\nline two';
  const data = await ok<Written>(mcp, 'file_write', { files: { 'deep/er/new.txt': { content } } });
  assert.deepEqual(data.files, [{ filePath: 'deep/er/new.txt', sha256: sha256(content), tag: computeTag('line one\nline two'), size: Buffer.byteLength(content), created: true }]);
  assert.deepEqual(await read('deep/er/new.txt'), Buffer.from(content, 'utf8'));
});

test('replacing needs the fresh hash: missing and stale are refused and retryable, nothing changes', async () => {
  const missing = await fails(mcp, 'file_write', { files: { 'a.txt': { content: 'beta\n' } } });
  assert.equal(missing.code, 'stale_or_missing_hash');
  assert.equal(missing.retryable, true);
  assert.equal(missing.suggestedNextCall, 'file_hash');
  assert.equal(missing.details?.filePath, 'a.txt');
  assert.equal(missing.details?.reason, 'missing');
  const stale = await fails(mcp, 'file_write', { files: { 'a.txt': { content: 'beta\n', expectedSha256: sha256('other\n') } } });
  assert.equal(stale.code, 'stale_or_missing_hash');
  assert.equal(stale.details?.reason, 'mismatch');
  assert.match(stale.message, /Stale file context: expected [0-9a-f]{64}, found [0-9a-f]{64}/);
  const unexpected = await fails(mcp, 'file_write', { files: { 'nope.txt': { content: 'x', expectedSha256: sha256('x') } } });
  assert.equal(unexpected.details?.reason, 'unexpected');
  assert.equal((await read('a.txt')).toString(), 'alpha\n');
  await assert.rejects(read('nope.txt'));

  const done = await ok<Written>(mcp, 'file_write', { files: { 'a.txt': { content: 'beta\n', expectedSha256: sha256('alpha\n').toUpperCase() } } });
  assert.equal(done.files[0]!.created, false);
  assert.equal(done.files[0]!.previousSha256, sha256('alpha\n'));
  assert.equal((await read('a.txt')).toString(), 'beta\n');
});

test('a replaced file keeps its mode; chattr.chmod sets one; a chown to another owner is refused', async () => {
  await ok(mcp, 'file_write', { files: { 'run.sh': { content: '#!/bin/sh\necho bye\n', expectedSha256: sha256('#!/bin/sh\necho hi\n') } } });
  assert.equal((await fsp.stat(path.join(sb.root, 'run.sh'))).mode & 0o7777, 0o750);
  await ok(mcp, 'file_write', { files: { 'mode.txt': { content: 'm\n', chattr: { chmod: 0o600 } } } });
  assert.equal((await fsp.stat(path.join(sb.root, 'mode.txt'))).mode & 0o7777, 0o600);
  const setuid = await fails(mcp, 'file_write', { files: { 'suid.txt': { content: 'm\n', chattr: { chmod: 0o4755 } } } });
  assert.equal(setuid.code, 'chattr_refused');
  assert.equal(setuid.details?.filePath, 'suid.txt');
  const st = await fsp.stat(path.join(sb.root, 'plain'));
  const chown = await fails(mcp, 'file_write', { files: { plain: { content: 'y', expectedSha256: sha256('x'), chattr: { chown: { uid: st.uid + 1, gid: st.gid } } } } });
  assert.equal(chown.code, 'chattr_refused');
  assert.equal((await read('plain')).toString(), 'x');
  await assert.rejects(read('suid.txt'));
});

test('a batch whose last file is refused at preflight writes nothing', async () => {
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_write', {
    files: {
      'b1.txt': { content: 'one' },
      'a.txt': { content: 'gamma\n', expectedSha256: sha256('beta\n') },
      '../outside/secret.txt': { content: 'pwned' },
    },
  });
  assert.equal(e.code, 'path_denied');
  assert.equal(e.details?.reason, 'path_outside_root');
  assert.equal(e.details?.filePath, '../outside/secret.txt');
  assert.deepEqual(await snapshotTree(sb.root), snap);
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});

test('a failure part-way restores every file already written (bytes and mode) and removes the parents it made', async () => {
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_write', {
    files: {
      'a.txt': { content: 'delta\n', expectedSha256: sha256('beta\n') },
      'made/by/batch.txt': { content: 'new' },
      // `plain` is a file, so this cannot be created: the third write fails after two landed
      'plain/child.txt': { content: 'never' },
    },
  });
  assert.equal(e.code, 'not_a_directory');
  assert.equal(e.details?.filePath, 'plain/child.txt');
  assert.deepEqual(e.details?.restored, ['a.txt', 'made/by/batch.txt']);
  assert.deepEqual(await snapshotTree(sb.root), snap, 'every byte, mode and directory as before');
});

test('the configuration file is out of reach; a batch over 50 files is batch_limit', async () => {
  const e = await fails(mcp, 'file_write', { files: { 'hashline.toml': { content: '[safety]\nrequire_hash = false\n' } } });
  assert.equal(e.code, 'path_denied');
  await assert.rejects(read('hashline.toml'));
  const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}.txt`, { content: 'x' }]));
  const limit = await fails(mcp, 'file_write', { files: many });
  assert.equal(limit.code, 'batch_limit');
  assert.equal(limit.message, 'file_write requires between 1 and 50 files');
  assert.equal((await fails(mcp, 'file_write', { files: {} })).code, 'batch_limit');
});

test('concurrent writers with the same expectedSha256 from two processes: exactly one wins', async () => {
  const other = await connectMcp(['--root', sb.root]);
  try {
    const current = sha256(await read('a.txt'));
    for (let round = 0; round < 5; round++) {
      const base = sha256(await read('a.txt'));
      const results = await Promise.all(
        [mcp, other].map((s, k) => s.call('file_write', { files: { 'a.txt': { content: `round ${round} writer ${k}\n`, expectedSha256: base } } })),
      );
      const oks = results.filter((r) => (r.structuredContent as { ok: boolean }).ok);
      const stale = results.filter((r) => (r.structuredContent as { error?: { code: string } }).error?.code === 'stale_or_missing_hash');
      assert.equal(oks.length, 1, `round ${round}: one winner`);
      assert.equal(stale.length, 1, `round ${round}: one stale`);
      const won = (oks[0]!.structuredContent as { data: Written }).data.files[0]!.sha256;
      assert.equal(sha256(await read('a.txt')), won, 'the disk holds the winner');
    }
    assert.notEqual(sha256(await read('a.txt')), current);
  } finally {
    await other.close();
  }
});

test('with [safety] require_hash = false a hash may be omitted, and a supplied one is still checked', async () => {
  const sb2 = await makeSandbox({ 'f.txt': 'one\n' });
  await fsp.writeFile(path.join(sb2.base, 'cfg.toml'), '[safety]\nrequire_hash = false\n');
  const s = await connectMcp(['--root', sb2.root, '--config', path.join(sb2.base, 'cfg.toml')]);
  try {
    await ok(s, 'file_write', { files: { 'f.txt': { content: 'two\n' } } });
    assert.equal(await fsp.readFile(path.join(sb2.root, 'f.txt'), 'utf8'), 'two\n');
    const e = await fails(s, 'file_write', { files: { 'f.txt': { content: 'three\n', expectedSha256: sha256('one\n') } } });
    assert.equal(e.code, 'stale_or_missing_hash');
    assert.equal(await fsp.readFile(path.join(sb2.root, 'f.txt'), 'utf8'), 'two\n');
  } finally {
    await s.close();
    await sb2.cleanup();
  }
});

test('successive replaces of a BOM and CRLF file are versions of their LF text: the tag is the text\'s, and fs_rollback gives the previous bytes back', async () => {
  const first = '\uFEFFone\r\ntwo\r\n';
  const second = '\uFEFFone\r\nTWO\r\nthree';
  const a = await ok<Written>(mcp, 'file_write', { files: { 'v.txt': { content: first } } });
  const b = await ok<Written & { files: Array<{ tag?: string }> }>(mcp, 'file_write', { files: { 'v.txt': { content: second, expectedSha256: a.files[0]!.sha256 } } });
  assert.equal(b.files[0]!.tag, computeTag('one\nTWO\nthree'));
  const r = await mcp.client.callTool({ name: 'fs_rollback', arguments: { path: 'v.txt', hash: '' } });
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  assert.deepEqual(await read('v.txt'), Buffer.from(first, 'utf8'));
});
