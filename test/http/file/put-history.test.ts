// HTTP PUT writes land in the durable history like tool writes: PUT /v1/fs/file and every file member
// of PUT /v1/fs/tar are logged with tool http_put_file / http_put_tar and the daemon's client id
// (`http:` + the token's short id, or `http:loopback`), the content before and after kept, so
// fs_rollback restores what a PUT replaced. Real HTTP on loopback, real tar.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { callTool } from '../../../src/api/call-tool.js';
import { httpClientId } from '../../../src/http/auth.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { q, startDaemon } from '../harness.js';
import { rawTar } from '../tar/raw-tar.js';

test('PUT /v1/fs/file: logged with the token id; the replaced content can be rolled back', async () => {
  const d = await startDaemon({ token: 'put-token', files: { 'a.txt': 'old\n' } });
  try {
    const put = (body: string | Uint8Array<ArrayBuffer>) => d.call(`/v1/fs/file?${q({ path: 'a.txt' })}`, { method: 'PUT', body });
    assert.equal((await put('new 1\n')).status, 204);
    assert.equal((await put(new Uint8Array([0, 1, 2, 255]))).status, 204);
    const real = path.join(d.sandbox.root, 'a.txt');
    const log = await d.engine.history.query!.timeline(real);
    const client = httpClientId('put-token');
    assert.match(client, /^http:[0-9a-f]{8}$/);
    assert.doesNotMatch(client, /put-token/);
    // newest first: the binary PUT, the first PUT's text, the text it replaced
    assert.deepEqual(
      log.map((e) => [e.op, e.kind, e.tool, e.client]),
      [
        ['made', 'bytes', 'http_put_file', client],
        ['made', 'text', 'http_put_file', client],
        ['seen', 'text', 'http_put_file', client],
      ],
    );
    assert.notEqual(log[0]!.batch, log[1]!.batch, 'one request, one batch');
    assert.equal(log[1]!.batch, log[2]!.batch);
    const oldTag = log[2]!.tag!;
    const r = await callTool(d.engine, fsRollbackTool, { path: 'a.txt', hash: oldTag });
    assert.equal(r.ok, true, r.text);
    assert.equal(await fsp.readFile(real, 'utf8'), 'old\n');
  } finally {
    await d.close();
  }
});

test('PUT /v1/fs/tar: each file member logged as http_put_tar, one batch; loopback client without a token', async () => {
  const d = await startDaemon({ files: { 'dest/keep.txt': 'before\n' } });
  try {
    const dest = path.join(d.sandbox.root, 'dest');
    const tar = rawTar([
      { name: 'keep.txt', type: '0', content: 'after\n' },
      { name: 'sub', type: '5' },
      { name: 'sub/new.txt', type: '0', content: 'fresh\n' },
      { name: 'link', type: '2', linkname: 'keep.txt' },
    ]);
    const r = await d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: tar });
    assert.equal(r.status, 204, await r.text());
    const feed = await d.engine.history.query!.feed({ path: `${dest}/` });
    const rows = feed.map((e) => [path.relative(dest, e.path), e.op, e.tool, e.client]).sort();
    assert.deepEqual(rows, [
      ['keep.txt', 'made', 'http_put_tar', 'http:loopback'],
      ['keep.txt', 'seen', 'http_put_tar', 'http:loopback'],
      ['sub/new.txt', 'made', 'http_put_tar', 'http:loopback'],
    ]);
    assert.equal(new Set(feed.map((e) => e.batch)).size, 1, 'one request, one batch');
    const keep = await d.engine.history.query!.timeline(path.join(dest, 'keep.txt'));
    const before = await d.engine.history.query!.content(keep.find((e) => e.op === 'seen')!.id);
    assert.equal(Buffer.from(before!.bytes).toString('utf8'), 'before\n');
  } finally {
    await d.close();
  }
});
