// Attack: cross-site request forgery against the console's rollback. A page on another origin
// (another port of the same loopback host counts as the same *site*, so SameSite=Strict alone does
// not stop it) makes the logged-in browser post a rollback. Every forged variant is refused and the
// file stays as it was: no CSRF token, a wrong one, a foreign Origin or Referer, a cross-site fetch,
// a form-encoded body, a GET. Only the console's own request, with the session's token, restores.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { fsWriteTool } from '../../src/tools/hashline/fs-write.js';
import { startDaemon } from '../http/harness.js';
import { login } from '../http/console/console-session.js';

test('forged rollbacks are refused and change nothing; the console\'s own one restores', async () => {
  const d = await startDaemon({ token: 'csrf-token', files: { 'a.txt': 'original\n' } });
  try {
    const file = path.join(d.sandbox.root, 'a.txt');
    const w = await callTool(d.engine, fsWriteTool, { targets: [{ path: 'a.txt', text: 'changed by an agent\n' }] });
    assert.equal(w.ok, true, w.text);
    const versions = await d.engine.history.query!.timeline(file);
    const original = versions.find((e) => e.op === 'seen')!;
    const s = await login(d, 'csrf-token');
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({ id: original.id });
    const forged: Array<[string, RequestInit]> = [
      ['no CSRF token', { method: 'POST', headers: { ...json, origin: d.url }, body }],
      ['a wrong CSRF token', { method: 'POST', headers: { ...json, origin: d.url, 'x-hashline-csrf': 'guess' }, body }],
      ['another port of the same host', { method: 'POST', headers: { ...json, origin: 'http://127.0.0.1:1', 'x-hashline-csrf': s.csrf }, body }],
      ['a foreign Origin', { method: 'POST', headers: { ...json, origin: 'http://evil.example', 'x-hashline-csrf': s.csrf }, body }],
      ['an opaque Origin', { method: 'POST', headers: { ...json, origin: 'null', 'x-hashline-csrf': s.csrf }, body }],
      ['a cross-site fetch', { method: 'POST', headers: { ...json, origin: d.url, 'sec-fetch-site': 'cross-site', 'x-hashline-csrf': s.csrf }, body }],
      ['a foreign Referer', { method: 'POST', headers: { ...json, referer: 'http://127.0.0.1:1/attack.html', 'x-hashline-csrf': s.csrf }, body }],
      ['a form-encoded body', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: d.url, 'x-hashline-csrf': s.csrf }, body: `id=${original.id}` }],
    ];
    for (const [what, init] of forged) {
      const r = await s.call('/console/api/rollback', init);
      assert.ok(r.status === 403 || r.status === 400, `${what}: ${r.status} ${await r.text()}`);
      assert.equal(await fsp.readFile(file, 'utf8'), 'changed by an agent\n', `${what}: the file is unchanged`);
    }
    const viaGet = await s.call(`/console/api/rollback?id=${original.id}`);
    assert.equal(viaGet.status, 404, 'no GET changes anything');
    assert.equal(await fsp.readFile(file, 'utf8'), 'changed by an agent\n');
    const log = await d.engine.history.query!.timeline(file);
    assert.equal(log.length, versions.length, 'nothing was logged by the refused requests');

    const ok = await s.post('/console/api/rollback', { id: original.id });
    assert.equal(ok.status, 200, await ok.clone().text());
    assert.equal(await fsp.readFile(file, 'utf8'), 'original\n');
    const [newest] = await d.engine.history.query!.timeline(file);
    assert.equal(newest!.tool, 'console');
    assert.equal(newest!.op, 'made');
  } finally {
    await d.close();
  }
});
