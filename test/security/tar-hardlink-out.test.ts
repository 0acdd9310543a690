// PUT /v1/fs/tar: hard links whose targets lie outside the extraction root (hard links resolve from
// the archive root).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ files: { 'sub/a.txt': 'a\n' } });
});
after(() => d.close());

test('a hard link to ../outside/secret.txt', async () => {
  await assertRefusedUntouched(d, rawTar([{ name: 'h', type: '1', linkname: '../outside/secret.txt' }]), {
    status: 400,
    body: 'refused tar member h: link target ../outside/secret.txt resolves outside the root',
  });
});

test('a hard link to an absolute path', async () => {
  const target = path.join(d.sandbox.outside, 'secret.txt');
  await assertRefusedUntouched(d, rawTar([{ name: 'h', type: '1', linkname: target }]), {
    status: 400,
    body: `refused tar member h: absolute link target ${target}`,
  });
});

test('a hard link resolves from the archive root, not its own directory', async () => {
  // from sub/, `../x` would be inside; from the archive root (extracting into sub) it is outside
  await assertRefusedUntouched(d, rawTar([{ name: 'deep/h', type: '1', linkname: '../a.txt' }]), {
    status: 400,
    body: 'refused tar member deep/h: link target ../a.txt resolves outside the root',
  }, `${d.sandbox.root}/sub`);
});

test('a hard link to a member inside is extracted', async () => {
  const archive = rawTar([
    { name: 'f.txt', type: '0', content: 'shared\n' },
    { name: 'g.txt', type: '1', linkname: 'f.txt' },
  ]);
  const r = await d.call(`/v1/fs/tar?${q({ path: `${d.sandbox.root}/hl` })}`, { method: 'PUT', body: archive });
  assert.equal(r.status, 204, await r.text());
  const [a, b] = await Promise.all([fsp.stat(path.join(d.sandbox.root, 'hl/f.txt')), fsp.stat(path.join(d.sandbox.root, 'hl/g.txt'))]);
  assert.equal(a.ino, b.ino);
});

test('a file already in the root hard-linked to an outside file: extracting over it leaves the outside file unchanged', async () => {
  const inside = path.join(d.sandbox.root, 'hardlinked.txt');
  await fsp.link(path.join(d.sandbox.outside, 'secret.txt'), inside);
  const r = await d.call(`/v1/fs/tar?${q({ path: d.sandbox.root })}`, { method: 'PUT', body: rawTar([{ name: 'hardlinked.txt', type: '0', content: 'replaced\n' }]) });
  assert.equal(r.status, 204, await r.text());
  assert.equal(await fsp.readFile(inside, 'utf8'), 'replaced\n');
  assert.equal(await fsp.readFile(path.join(d.sandbox.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});
