// The live feed over real HTTP: the console's event stream delivers a change committed by another
// process (a spawned `hashline mcp` on the same root and state directory, so the same SQLite store),
// with who made it and how many lines changed; a reconnect naming the last event id gets what it
// missed; filters hold on the stream. With the history in memory the console says so plainly.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { historyUnavailable } from '../../../src/core/messages/console.js';
import { connectMcp, type McpSession, textOf } from '../../helpers/mcp-client.js';
import { type Daemon, startDaemon } from '../harness.js';
import { login, type ConsoleSession } from './console-session.js';
import { readEvents } from './sse-reader.js';

interface View {
  id: number;
  path: string;
  tool: string;
  client: string;
  op: string;
  added: number | null;
  removed: number | null;
}

describe('the event stream follows the shared store', () => {
  let d: Daemon;
  let mcp: McpSession;
  let s: ConsoleSession;
  before(async () => {
    d = await startDaemon({ token: 'sse', files: { 'a.txt': 'one\ntwo\n', 'sub/b.txt': 'b\n' } });
    mcp = await connectMcp(['--root', d.sandbox.root]);
    s = await login(d, 'sse');
  });
  after(async () => {
    await mcp.close();
    await d.close();
  });

  test('an MCP write in another process arrives as an event', async () => {
    const events = await readEvents(await s.call('/console/api/events'));
    try {
      const ready = await events.next((e) => e.event === 'ready');
      assert.equal((JSON.parse(ready.data) as { pollMs: number }).pollMs, 50);
      const w = await mcp.call('fs_write', { targets: [{ path: 'a.txt', text: 'one\nTWO\nthree\n' }] });
      assert.notEqual(w.isError, true, textOf(w));
      const e = await events.next((x) => x.event === 'entries' && x.data.includes('"made"'));
      const made = (JSON.parse(e.data) as View[]).find((v) => v.op === 'made')!;
      assert.equal(made.path, 'a.txt');
      assert.equal(made.tool, 'fs_write');
      assert.match(made.client, /^mcp-stdio:/);
      assert.deepEqual([made.added, made.removed], [2, 1]);
      assert.equal(e.id, String((JSON.parse(e.data) as View[]).at(-1)!.id), 'the event id is the cursor');
    } finally {
      await events.close();
    }
  });

  test('a reconnect with Last-Event-ID gets what it missed; filters hold', async () => {
    const [top] = (await (await s.call('/console/api/feed?limit=1')).json() as { entries: View[] }).entries;
    const w1 = await mcp.call('fs_write', { targets: [{ path: 'sub/b.txt', text: 'b2\n' }] });
    const w2 = await mcp.call('fs_write', { targets: [{ path: 'a.txt', text: 'missed\n' }] });
    assert.notEqual(w1.isError, true);
    assert.notEqual(w2.isError, true);
    const all = await readEvents(await s.call('/console/api/events', { headers: { 'last-event-id': String(top!.id) } }));
    const sub = await readEvents(await s.call(`/console/api/events?path=sub%2F&after=${top!.id}`));
    try {
      // both writes were committed before the stream opened: the catch-up delivers them at once
      const missed = await all.next((e) => e.event === 'entries');
      const paths = new Set((JSON.parse(missed.data) as View[]).filter((v) => v.op === 'made').map((v) => v.path));
      assert.deepEqual([...paths].sort(), ['a.txt', 'sub/b.txt']);
      const onlySub = await sub.next((e) => e.event === 'entries');
      assert.deepEqual([...new Set((JSON.parse(onlySub.data) as View[]).map((v) => v.path))], ['sub/b.txt']);
    } finally {
      await all.close();
      await sub.close();
    }
  });
});

test('with the history in memory, the console says so instead of failing', async () => {
  const { mergeConfig } = await import('../../../src/core/config/config.js');
  const { createEngine } = await import('../../../src/tools/engine.js');
  const { createHttpServer } = await import('../../../src/http/server.js');
  const { makeSandbox } = await import('../../helpers/tmp-tree.js');
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [], history: 'memory' }));
  const { app } = await createHttpServer(engine, { tools: [], host: '127.0.0.1' });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const session = await fetch(`${url}/console/api/session`);
    const body = (await session.json()) as { history: { queryable: boolean; message: string; backend: string } };
    assert.equal(body.history.queryable, false);
    assert.equal(body.history.backend, 'memory');
    assert.equal(body.history.message, historyUnavailable('memory'));
    assert.match(body.history.message, /kept in memory \(--history memory\)/);
    const cookie = session.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const feed = await fetch(`${url}/console/api/feed`, { headers: { cookie } });
    assert.equal(feed.status, 503);
    assert.equal(feed.headers.get('hashline-error-code'), 'history_unavailable');
    const guard = await fetch(`${url}/console/api/guard`, { headers: { cookie } });
    assert.equal(guard.status, 200, 'the guard view still works');
    assert.equal(((await guard.json()) as { history: { stats: unknown } }).history.stats, null);
  } finally {
    await app.close();
    await sb.cleanup();
  }
});
