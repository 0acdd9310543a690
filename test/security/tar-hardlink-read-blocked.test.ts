// Attack: PUT /v1/fs/tar with a hard-link member `copy.txt → secrets/key`, where secrets/ is inside
// the root and blocked for reading (but not for writing). A hard link has no target to resolve when
// it is read: its own name would read the blocked file. The archive is refused, nothing is written,
// and GET copy.txt cannot return the secret.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { linkTargetUnreadable } from '../../src/core/messages/http.js';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

const SECRET = 'API_KEY=hunter2-top-secret\n';

let d: Daemon;
before(async () => {
  d = await startDaemon({ files: { 'secrets/key': SECRET, 'a.txt': 'a\n' }, readBlock: ['secrets'] });
});
after(() => d.close());

async function assertNoSecretAt(name: string): Promise<void> {
  const r = await d.call(`/v1/fs/file?${q({ path: name })}`);
  const body = await r.text();
  assert.equal(r.status, 404, body);
  assert.doesNotMatch(body, /hunter2/);
}

test('the read policy holds: GET secrets/key is refused', async () => {
  const r = await d.call(`/v1/fs/file?${q({ path: 'secrets/key' })}`);
  assert.equal(r.status, 403);
  assert.doesNotMatch(await r.text(), /hunter2/);
});

test('a hard link copy.txt → secrets/key is refused; nothing is written, and GET copy.txt has no secret', async () => {
  await assertRefusedUntouched(d, rawTar([{ name: 'copy.txt', type: '1', linkname: 'secrets/key' }]), {
    status: 400,
    body: linkTargetUnreadable('copy.txt', 'secrets/key'),
  });
  await assertNoSecretAt('copy.txt');
});

test('the same link after harmless members, and through ./ and a directory member: refused as a whole', async () => {
  const archive = rawTar([
    { name: 'out/', type: '5' },
    { name: 'out/first.txt', type: '0', content: 'first\n' },
    { name: 'out/copy.txt', type: '1', linkname: './secrets/../secrets/key' },
  ]);
  await assertRefusedUntouched(d, archive, { status: 400, body: linkTargetUnreadable('out/copy.txt', './secrets/../secrets/key') });
  await assertNoSecretAt('out/copy.txt');
});

test('a hard link whose own name is blocked for reading too gives no readable name: extracted', async () => {
  const r = await d.call(`/v1/fs/tar?${q({ path: d.sandbox.root })}`, { method: 'PUT', body: rawTar([{ name: 'secrets/key.bak', type: '1', linkname: 'secrets/key' }]) });
  assert.equal(r.status, 204, await r.text());
  const [a, b] = await Promise.all([fsp.stat(path.join(d.sandbox.root, 'secrets/key')), fsp.stat(path.join(d.sandbox.root, 'secrets/key.bak'))]);
  assert.equal(a.ino, b.ino);
  const get = await d.call(`/v1/fs/file?${q({ path: 'secrets/key.bak' })}`);
  assert.equal(get.status, 403);
  assert.doesNotMatch(await get.text(), /hunter2/);
});
