// The console's timeline and rollback over real HTTP: counts of changed lines per version, a version
// older than the 10 that fs_rollback sees restored by its id (the console makes it known again, then
// runs fs_rollback), binary versions listed and diffed as binary but not restored, a deletion marker
// and the version already on disk refused with their codes, and every rollback logged as `console`.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { callTool } from '../../../src/api/call-tool.js';
import { MAX_VERSIONS_PER_PATH } from '../../../src/core/history/limits.js';
import { fsWriteTool } from '../../../src/tools/hashline/fs-write.js';
import { q, startDaemon } from '../harness.js';
import { login } from './console-session.js';

interface View {
  id: number;
  op: string;
  tool: string;
  kind: string | null;
  tag: string | null;
  added: number | null;
  removed: number | null;
}

const text = (i: number) => `version ${i}\n${'same\n'.repeat(3)}`;

test('a version older than the rollback window is restored by its id', async () => {
  const d = await startDaemon({ token: 't', files: { 'f.txt': text(0) } });
  try {
    const n = MAX_VERSIONS_PER_PATH + 4;
    for (let i = 1; i <= n; i++) assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: 'f.txt', text: text(i) }] })).ok, true);
    const s = await login(d, 't');
    const tl = (await (await s.call(`/console/api/timeline?${q({ path: 'f.txt' })}`)).json()) as { entries: View[] };
    assert.equal(tl.entries.length, n + 1);
    for (const e of tl.entries.slice(0, -1)) assert.deepEqual([e.added, e.removed], [1, 1], 'one line changed per write');
    assert.equal(tl.entries.at(-1)!.op, 'seen');
    assert.equal(tl.entries.at(-1)!.added, null, 'a first sighting is not a change');
    const oldest = tl.entries.at(-1)!;

    const r = await s.post('/console/api/rollback', { id: oldest.id });
    assert.equal(r.status, 200, await r.clone().text());
    const body = (await r.json()) as { path: string; file_hash: string; replaced_hash: string };
    assert.equal(body.path, 'f.txt');
    assert.equal(body.file_hash, oldest.tag);
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'f.txt'), 'utf8'), text(0));
    const after = (await (await s.call(`/console/api/timeline?${q({ path: 'f.txt', limit: 2 })}`)).json()) as { entries: View[] };
    assert.deepEqual(after.entries.map((e) => [e.op, e.tool]), [['made', 'console'], ['seen', 'console']]);

    const again = await s.post('/console/api/rollback', { id: oldest.id });
    assert.equal(again.status, 409);
    assert.equal(again.headers.get('hashline-error-code'), 'already_at_version');
  } finally {
    await d.close();
  }
});

test('binary versions: listed, diffed as binary, not restored; markers refused', async () => {
  const d = await startDaemon({ token: 't', files: { 'b.bin': 'text first\n' } });
  try {
    const put = await d.call(`/v1/fs/file?${q({ path: 'b.bin' })}`, { method: 'PUT', body: new Uint8Array([0, 159, 146, 150, 0]) });
    assert.equal(put.status, 204);
    assert.equal((await callTool(d.engine, fsWriteTool, { targets: [{ path: 'gone.txt', text: 'x\n' }] })).ok, true);
    const { fileDeleteTool } = await import('../../../src/tools/boundary/file-delete.js');
    const del = await callTool(d.engine, fileDeleteTool, { files: { 'gone.txt': { expectedSha256: createHash('sha256').update('x\n').digest('hex') } } });
    assert.equal(del.ok, true, del.text);
    const s = await login(d, 't');
    const tl = (await (await s.call(`/console/api/timeline?${q({ path: 'b.bin' })}`)).json()) as { entries: View[] };
    const bin = tl.entries.find((e) => e.kind === 'bytes')!;
    assert.equal(bin.tag, null);
    const diff = (await (await s.call(`/console/api/diff?${q({ id: bin.id })}`)).json()) as { binary: boolean; diff: unknown };
    assert.deepEqual([diff.binary, diff.diff], [true, null]);
    const refused = await s.post('/console/api/rollback', { id: bin.id });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /restores text versions only/);
    const gone = (await (await s.call(`/console/api/timeline?${q({ path: 'gone.txt' })}`)).json()) as { entries: View[] };
    const marker = gone.entries.find((e) => e.op === 'delete')!;
    const noContent = await s.post('/console/api/rollback', { id: marker.id });
    assert.equal(noContent.status, 404);
    assert.equal((await s.call(`/console/api/diff?${q({ id: marker.id })}`)).status, 404);
    assert.equal((await s.post('/console/api/rollback', { id: 'one' })).status, 400);
    assert.equal((await s.call('/console/api/diff?id=1&extra=1')).status, 400, 'unknown query keys are refused');
  } finally {
    await d.close();
  }
});
