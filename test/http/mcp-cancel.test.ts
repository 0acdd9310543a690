// /mcp: a client that closes the HTTP request of a running batch cancels it. A raw Streamable HTTP
// session on loopback starts a 50-file rename (slowed by the batch test seam), reads its progress
// events, and drops the connection mid-batch; the batch stops and every file is moved back.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { snapshotTree } from '../helpers/tmp-tree.js';
import { type Daemon, startDaemon } from './harness.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.txt`, `file ${i}\n`]));

let d: Daemon;
before(async () => {
  d = await startDaemon({ files });
});
after(() => d.close());

/** One POST to /mcp; resolves with the response (its body not yet read). */
function post(body: unknown, session?: string): Promise<http.IncomingMessage & { request: http.ClientRequest }> {
  const url = new URL(`${d.url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) } },
      (res) => resolve(Object.assign(res, { request: req })),
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const drain = (res: http.IncomingMessage) => new Promise<string>((resolve) => {
  let text = '';
  res.on('data', (c: Buffer) => (text += c.toString()));
  res.on('end', () => resolve(text));
});

test('closing the HTTP request of a running batch cancels it: stopped, rolled back, nothing moved', async () => {
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
  const session = init.headers['mcp-session-id'] as string;
  assert.ok(session);
  await drain(init);
  await drain(await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session));
  const before = await snapshotTree(d.sandbox.root);
  process.env.HASHLINE_TEST_BATCH_STEP_MS = '60';
  try {
    const args = { files: Object.fromEntries(Object.entries(files).map(([p, c]) => [p, { destination: p.replace('src/', 'moved/'), expectedSha256: sha(c) }])) };
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'file_rename', arguments: args, _meta: { progressToken: 'p' } } }, session);
    // read progress events until ten files are done, then drop the connection
    const seen = await new Promise<number>((resolve, reject) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
        const done = [...text.matchAll(/"progress":(\d+)/g)].map((m) => Number(m[1]));
        const last = done[done.length - 1] ?? 0;
        if (last >= 10) {
          res.request.destroy();
          resolve(last);
        }
      });
      res.on('end', () => reject(new Error(`the call finished before it was cancelled: ${text.slice(-300)}`)));
    });
    assert.ok(seen >= 10 && seen < 50);
    // A call on the same files waits for the cancelled batch's locks, so it runs after the rollback.
    const probe = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'file_chattr', arguments: { files: { 'src/f00.txt': { chattr: { chmod: 0o644 }, expectedSha256: sha(files['src/f00.txt']!) } } } } }, session);
    const answer = await drain(probe);
    assert.match(answer, /\\"ok\\":true|"ok":true/, answer.slice(0, 400));
    const now = await snapshotTree(d.sandbox.root);
    // the probe's own chmod aside, the tree is as it was before the batch
    now.set('src/f00.txt', before.get('src/f00.txt')!);
    assert.deepEqual(now, before);
  } finally {
    delete process.env.HASHLINE_TEST_BATCH_STEP_MS;
  }
});
