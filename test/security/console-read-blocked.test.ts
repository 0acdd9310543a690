// Attack: the durable history keeps the content of a file the console's server may not read. An
// engine without a read policy records a secret's versions in the shared store; the daemon of the
// same root runs with `--read-block secrets`. Every console endpoint is asked for them every way:
// the feed (filtered and not), the timeline, the diff of each version, the live event stream as
// the secret changes again, the guard view, a rollback. The versions are listed; no byte of the
// secret, and no count derived from it, is in any reply.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { mergeConfig } from '../../src/core/config/config.js';
import { createEngine } from '../../src/tools/engine.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { fsWriteTool } from '../../src/tools/hashline/fs-write.js';
import { login } from '../http/console/console-session.js';
import { readEvents } from '../http/console/sse-reader.js';
import { startDaemon } from '../http/harness.js';

const SECRET_1 = 'API_KEY=hunter2-first-secret\n';
const SECRET_2 = 'API_KEY=hunter2-second-secret\nDB=hunter2-db\n';
const SECRET_3 = 'API_KEY=hunter2-third-secret\n';

test('no console endpoint shows a read-blocked path\'s content', async () => {
  const d = await startDaemon({ token: 't', readBlock: ['secrets'], files: { 'secrets/key': SECRET_1, 'open.txt': 'open\n' } });
  // another engine of the same root, without a read policy, shares the store
  const writer = await createEngine(mergeConfig({ root: d.sandbox.root, allow: [], block: [], readAllow: [], readBlock: [] }));
  const replies: string[] = [];
  const keep = async (r: Response) => {
    const text = await r.text();
    replies.push(text);
    return text;
  };
  try {
    assert.equal((await callTool(writer, fsReadTool, { targets: [{ path: 'secrets/key' }] })).ok, true);
    assert.equal((await callTool(writer, fsWriteTool, { targets: [{ path: 'secrets/key', text: SECRET_2 }] })).ok, true);
    const s = await login(d, 't');

    const feed = JSON.parse(await keep(await s.call('/console/api/feed'))) as { entries: Array<{ id: number; path: string; readable: boolean; added: number | null }> };
    const mine = feed.entries.filter((e) => e.path === 'secrets/key');
    assert.ok(mine.length >= 2, 'the versions are listed');
    for (const e of mine) assert.deepEqual([e.readable, e.added], [false, null]);
    await keep(await s.call('/console/api/feed?path=secrets%2F'));
    const tl = JSON.parse(await keep(await s.call('/console/api/timeline?path=secrets%2Fkey'))) as { readable: boolean; entries: Array<{ id: number; added: number | null }> };
    assert.equal(tl.readable, false);
    assert.ok(tl.entries.length >= 2);
    for (const e of tl.entries) {
      assert.equal(e.added, null);
      const diff = await s.call(`/console/api/diff?id=${e.id}`);
      assert.equal(diff.status, 403);
      assert.equal(diff.headers.get('hashline-error-code'), 'path_blocked');
      await keep(diff);
    }

    const events = await readEvents(await s.call('/console/api/events'));
    await events.next((e) => e.event === 'ready');
    assert.equal((await callTool(writer, fsWriteTool, { targets: [{ path: 'secrets/key', text: SECRET_3 }] })).ok, true);
    const live = await events.next((e) => e.event === 'entries' && e.data.includes('secrets/key'));
    const views = JSON.parse(live.data) as Array<{ readable: boolean; added: number | null }>;
    for (const v of views) assert.deepEqual([v.readable, v.added], [false, null]);
    replies.push(events.raw());
    await events.close();

    await keep(await s.call('/console/api/guard'));
    const first = tl.entries[tl.entries.length - 1]!;
    // a write the policy allows (as fs_rollback does): its reply names tags, never content
    const rb = await s.post('/console/api/rollback', { id: first.id });
    assert.equal(rb.status, 200);
    assert.match(await keep(rb), /"file_hash"/);
    assert.equal((await s.call(`/console/api/content?id=${first.id}`)).status, 404, 'no endpoint serves raw content');
    for (const r of replies) assert.doesNotMatch(r, /hunter2/, 'no reply carries the secret');
  } finally {
    await writer.history.close();
    await d.close();
  }
});
