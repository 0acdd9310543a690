// file_rename over a real `hashline mcp`: renames with new parents, the history following the file,
// chains and swaps refused, renames onto themselves, onto existing paths, across the root, into a
// symbolic link to outside, of directories and links, hashes; and (a second server slowed by the
// batch test seam) a destination that appears between the preflight and its rename.

import assert from 'node:assert/strict';
import { promises as fsp, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
const at = (rel: string) => path.join(sb.root, rel);
const put = async (rel: string, text: string) => {
  await fsp.mkdir(path.dirname(at(rel)), { recursive: true });
  await fsp.writeFile(at(rel), text);
};

before(async () => {
  sb = await makeSandbox({});
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

type Renamed = { files: Array<{ filePath: string; destination: string; sha256: string; tag?: string; createdDirectories: string[] }> };

test('a batch renames every file, creates missing parents, keeps modes, and the history follows the file', async () => {
  await put('one.sh', '#!/bin/sh\n');
  await fsp.chmod(at('one.sh'), 0o750);
  await put('two.txt', 'two\n');
  const read = (await mcp.call('fs_read', { targets: [{ path: 'two.txt' }] })) as CallToolResult;
  const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  const data = await ok<Renamed>(mcp, 'file_rename', {
    files: {
      'one.sh': { destination: 'bin/tools/one.sh', expectedSha256: sha256('#!/bin/sh\n') },
      'two.txt': { destination: 'docs/two.md', expectedSha256: sha256('two\n') },
    },
  });
  assert.deepEqual(data.files, [
    { filePath: 'one.sh', destination: 'bin/tools/one.sh', sha256: sha256('#!/bin/sh\n'), tag: computeTag('#!/bin/sh\n'), createdDirectories: ['bin', 'bin/tools'] },
    { filePath: 'two.txt', destination: 'docs/two.md', sha256: sha256('two\n'), tag: computeTag('two\n'), createdDirectories: ['docs'] },
  ]);
  assert.equal((await fsp.stat(at('bin/tools/one.sh'))).mode & 0o7777, 0o750);
  await assert.rejects(fsp.stat(at('one.sh')));
  await assert.rejects(fsp.stat(at('two.txt')));
  // the versions moved with the file: a change at the new name can be rolled back to the old text
  await ok(mcp, 'file_write', { files: { 'docs/two.md': { content: 'changed\n', expectedSha256: sha256('two\n') } } });
  const back = (await mcp.call('fs_rollback', { path: 'docs/two.md', hash: tag })) as CallToolResult;
  assert.notEqual(back.isError, true, JSON.stringify(back.structuredContent));
  assert.equal(await fsp.readFile(at('docs/two.md'), 'utf8'), 'two\n');
});

test('a chain (a→b, b→c) and a swap (a→b, b→a) are refused as a whole: each file once per batch', async () => {
  await put('ca.txt', 'a');
  await put('cb.txt', 'b');
  const snap = await snapshotTree(sb.root);
  const chain = await fails(mcp, 'file_rename', {
    files: { 'ca.txt': { destination: 'cb.txt', expectedSha256: sha256('a') }, 'cb.txt': { destination: 'cc.txt', expectedSha256: sha256('b') } },
  });
  assert.equal(chain.code, 'invalid_arguments');
  assert.match(chain.message, /`cb\.txt` is named twice in one batch.*split chains and swaps/);
  const swap = await fails(mcp, 'file_rename', {
    files: { 'ca.txt': { destination: 'cb.txt', expectedSha256: sha256('a') }, 'cb.txt': { destination: 'ca.txt', expectedSha256: sha256('b') } },
  });
  assert.equal(swap.code, 'invalid_arguments');
  const shared = await fails(mcp, 'file_rename', {
    files: { 'ca.txt': { destination: 'same.txt', expectedSha256: sha256('a') }, 'cb.txt': { destination: 'same.txt', expectedSha256: sha256('b') } },
  });
  assert.equal(shared.code, 'invalid_arguments');
  assert.deepEqual(await snapshotTree(sb.root), snap);
  // as two calls, the chain works: b→c first, then a→b
  await ok(mcp, 'file_rename', { files: { 'cb.txt': { destination: 'cc.txt', expectedSha256: sha256('b') } } });
  await ok(mcp, 'file_rename', { files: { 'ca.txt': { destination: 'cb.txt', expectedSha256: sha256('a') } } });
  assert.equal(await fsp.readFile(at('cb.txt'), 'utf8'), 'a');
  assert.equal(await fsp.readFile(at('cc.txt'), 'utf8'), 'b');
});

test('onto itself (by another spelling, or through a link to it) is refused; onto any existing path is already_exists', async () => {
  await put('self.txt', 'me');
  await put('taken.txt', 'taken');
  await fsp.mkdir(at('a-dir'), { recursive: true });
  await fsp.symlink('self.txt', at('alias.txt'));
  await fsp.link(at('self.txt'), at('hard.txt'));
  await fsp.symlink('nowhere.txt', at('dangling.txt'));
  const snap = await snapshotTree(sb.root);
  const h = sha256('me');
  for (const destination of ['self.txt', './a-dir/../self.txt', 'alias.txt']) {
    const e = await fails(mcp, 'file_rename', { files: { 'self.txt': { destination, expectedSha256: h } } });
    assert.equal(e.code, 'invalid_arguments', destination);
    assert.match(e.message, /same file/);
  }
  for (const destination of ['taken.txt', 'a-dir', 'hard.txt', 'dangling.txt']) {
    const e = await fails(mcp, 'file_rename', { files: { 'self.txt': { destination, expectedSha256: h } } });
    assert.equal(e.code, 'already_exists', destination);
    assert.equal(e.details?.filePath, 'self.txt');
  }
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('across the root, into a link to outside, from outside: path_denied; nothing moves on either side', async () => {
  await put('inside.txt', 'in');
  await fsp.symlink(sb.outside, at('exit'));
  const snap = await snapshotTree(sb.root);
  const outside = await snapshotTree(sb.outside);
  const h = sha256('in');
  for (const destination of ['../outside/inside.txt', path.join(sb.outside, 'x.txt'), 'exit/inside.txt', 'exit/new/dir/inside.txt']) {
    const e = await fails(mcp, 'file_rename', { files: { 'inside.txt': { destination, expectedSha256: h } } });
    assert.equal(e.code, 'path_denied', destination);
    assert.equal(e.details?.filePath, 'inside.txt');
    assert.equal(e.details?.destination, destination);
  }
  const from = await fails(mcp, 'file_rename', { files: { '../outside/secret.txt': { destination: 'stolen.txt', expectedSha256: sha256('TOP SECRET\n') } } });
  assert.equal(from.code, 'path_denied');
  assert.doesNotMatch(JSON.stringify(from), /TOP SECRET/);
  assert.deepEqual(await snapshotTree(sb.root), snap);
  assert.deepEqual(await snapshotTree(sb.outside), outside);
  // an absolute path inside the root is the same as a relative one
  await ok(mcp, 'file_rename', { files: { [at('inside.txt')]: { destination: 'moved-in.txt', expectedSha256: h } } });
  assert.equal(await fsp.readFile(at('moved-in.txt'), 'utf8'), 'in');
});

test('directories and symbolic links are not renamed; hashes are required and checked', async () => {
  await fsp.mkdir(at('folder'), { recursive: true });
  await put('folder/f.txt', 'f');
  await put('target.txt', 't');
  await fsp.symlink('target.txt', at('link.txt'));
  const snap = await snapshotTree(sb.root);
  const dir = await fails(mcp, 'file_rename', { files: { folder: { destination: 'folder2', expectedSha256: sha256('') } } });
  assert.equal(dir.code, 'is_directory');
  const link = await fails(mcp, 'file_rename', { files: { 'link.txt': { destination: 'link2.txt', expectedSha256: sha256('t') } } });
  assert.equal(link.code, 'not_regular_file');
  const missing = await fails(mcp, 'file_rename', { files: { 'target.txt': { destination: 'target2.txt' } } });
  assert.equal(missing.code, 'stale_or_missing_hash');
  assert.equal(missing.details?.reason, 'missing');
  const stale = await fails(mcp, 'file_rename', { files: { 'target.txt': { destination: 'target2.txt', expectedSha256: sha256('old') } } });
  assert.equal(stale.details?.reason, 'mismatch');
  const gone = await fails(mcp, 'file_rename', { files: { 'nope.txt': { destination: 'n2.txt', expectedSha256: sha256('') } } });
  assert.equal(gone.code, 'not_found');
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('a destination that appears between the preflight and its rename: already_exists, the first rename moved back', async () => {
  const slow = await makeSandbox({ 'first.txt': '1', 'second.txt': '2' });
  process.env.HASHLINE_TEST_BATCH_STEP_MS = '600';
  const server = await connectMcp(['--root', slow.root]);
  delete process.env.HASHLINE_TEST_BATCH_STEP_MS;
  try {
    let intruded = false;
    const r = (await server.client.callTool(
      {
        name: 'file_rename',
        arguments: {
          files: {
            'first.txt': { destination: 'new/first.txt', expectedSha256: sha256('1') },
            'second.txt': { destination: 'late.txt', expectedSha256: sha256('2') },
          },
        },
      },
      undefined,
      {
        // the first file is renamed and reported; the second waits 600 ms before its rename
        onprogress: (p) => {
          if (p.progress === 1 && !intruded) {
            intruded = true;
            writeFileSync(path.join(slow.root, 'late.txt'), 'intruder');
          }
        },
      },
    )) as CallToolResult;
    assert.ok(intruded, 'the progress notification of the first rename arrived');
    const err = (r.structuredContent as { error: { code: string; details: Record<string, unknown> } }).error;
    assert.equal(err.code, 'already_exists');
    assert.equal(err.details.filePath, 'second.txt');
    assert.deepEqual(err.details.restored, ['first.txt']);
    assert.deepEqual((await fsp.readdir(slow.root)).sort(), ['first.txt', 'late.txt', 'second.txt']);
    assert.equal(await fsp.readFile(path.join(slow.root, 'late.txt'), 'utf8'), 'intruder');
  } finally {
    await server.close();
    await slow.cleanup();
  }
});

test('the tag of a moved file: from the bytes the batch read when small, read again when larger', async () => {
  const big = 'row of a larger file\n'.repeat(20_000); // 420 KB: more than the batch keeps
  await put('small-t.txt', 'small \r\n');
  await put('big-t.txt', big);
  const data = await ok<Renamed>(mcp, 'file_rename', {
    files: {
      'small-t.txt': { destination: 'moved-t/small.txt', expectedSha256: sha256('small \r\n') },
      'big-t.txt': { destination: 'moved-t/big.txt', expectedSha256: sha256(big) },
    },
  });
  assert.deepEqual(data.files.map((f) => f.tag), [computeTag('small\n'), computeTag(big)]);
});

test('a read-blocked file renamed with its hash gets no tag', async () => {
  const blocked = await makeSandbox({ 'vault/a.txt': 'secret\n' });
  const server = await connectMcp(['--root', blocked.root, '--read-block', 'vault']);
  try {
    const data = await ok<Renamed>(server, 'file_rename', {
      files: { 'vault/a.txt': { destination: 'vault/b.txt', expectedSha256: sha256('secret\n') } },
    });
    assert.equal(data.files[0]!.sha256, sha256('secret\n'), 'the hash the caller gave');
    assert.equal(data.files[0]!.tag, undefined);
    assert.equal(await fsp.readFile(path.join(blocked.root, 'vault/b.txt'), 'utf8'), 'secret\n');
  } finally {
    await server.close();
    await blocked.cleanup();
  }
});

test('a moved file changed by a writer that takes no locks while the batch runs gets no tag of the old bytes', async () => {
  const slow = await makeSandbox({ 'first.txt': '1', 'second.txt': '2' });
  process.env.HASHLINE_TEST_BATCH_STEP_MS = '300';
  const server = await connectMcp(['--root', slow.root]);
  delete process.env.HASHLINE_TEST_BATCH_STEP_MS;
  try {
    let changed = false;
    const r = (await server.client.callTool(
      { name: 'file_rename', arguments: { files: { 'first.txt': { destination: 'new/first.txt', expectedSha256: sha256('1') }, 'second.txt': { destination: 'new/second.txt', expectedSha256: sha256('2') } } } },
      undefined,
      {
        // the first file has moved; the second waits before its rename: change the first in place, same size
        onprogress: (p) => {
          if (p.progress === 1 && !changed) {
            changed = true;
            writeFileSync(path.join(slow.root, 'new/first.txt'), '9');
          }
        },
      },
    )) as CallToolResult;
    assert.ok(changed, 'the progress notification of the first rename arrived');
    const files = (r.structuredContent as { data: { files: Array<{ sha256: string; tag?: string }> } }).data.files;
    assert.equal(files[0]!.sha256, sha256('1'), 'the bytes the batch moved');
    assert.equal(files[0]!.tag, undefined, 'the file holds other bytes now');
    assert.equal(files[1]!.tag, computeTag('2'));
  } finally {
    await server.close();
    await slow.cleanup();
  }
});
