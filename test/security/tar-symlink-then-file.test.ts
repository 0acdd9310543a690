// PUT /v1/fs/tar: a symlink member followed by a file written through it, symlinks pointing out,
// and a symlink already on disk that a member would be written through.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ files: { 'inside/keep.txt': 'keep\n' } });
});
after(() => d.close());

test('a symlink to outside, then a file through it', async () => {
  const archive = rawTar([
    { name: 'evil', type: '2', linkname: '../outside' },
    { name: 'evil/secret.txt', type: '0', content: 'pwned\n' },
  ]);
  await assertRefusedUntouched(d, archive, { status: 400, body: 'refused tar member evil: link target ../outside resolves outside the root' });
});

test('an absolute symlink target', async () => {
  const target = d.sandbox.outside;
  await assertRefusedUntouched(d, rawTar([{ name: 'abs', type: '2', linkname: target }]), {
    status: 400,
    body: `refused tar member abs: absolute link target ${target}`,
  });
});

test('a symlink inside, then a file through it: never written through a link', async () => {
  const archive = rawTar([
    { name: 'alias', type: '2', linkname: 'inside' },
    { name: 'alias/new.txt', type: '0', content: 'x' },
  ]);
  await assertRefusedUntouched(d, archive, { status: 400, body: /^refused tar member alias\/new\.txt: alias is a symbolic link/ });
});

test('a chain of links that climbs out only when followed', async () => {
  const archive = rawTar([
    { name: 'd1/', type: '5' },
    { name: 'd1/up', type: '2', linkname: '..' },
    { name: 'w', type: '2', linkname: 'd1/up/..' },
  ]);
  await assertRefusedUntouched(d, archive, { status: 400, body: 'refused tar member w: link target d1/up/.. resolves outside the root' });
});

test('a link already on disk pointing out: a member under it is refused', async () => {
  await fsp.symlink(d.sandbox.outside, path.join(d.sandbox.root, 'planted'));
  try {
    await assertRefusedUntouched(d, rawTar([{ name: 'planted/secret.txt', type: '0', content: 'pwned\n' }]), {
      status: 400,
      body: /^refused tar member planted\/secret\.txt: planted is a symbolic link/,
    });
  } finally {
    await fsp.unlink(path.join(d.sandbox.root, 'planted'));
  }
});

test('a member under a block-listed path → 403, nothing written', async () => {
  const e = await startDaemon({ block: ['private'] });
  try {
    await assertRefusedUntouched(e, rawTar([{ name: 'ok.txt', type: '0', content: 'x' }, { name: 'private/key', type: '0', content: 'k' }]), {
      status: 403,
      body: /^permission denied: `private\/key` — path is in blocklist$/,
    });
  } finally {
    await e.close();
  }
});

test('symlinks that stay inside are kept as links', async () => {
  const archive = rawTar([
    { name: 'ok/', type: '5' },
    { name: 'ok/target.txt', type: '0', content: 't\n' },
    { name: 'ok/link', type: '2', linkname: 'target.txt' },
  ]);
  const r = await d.call(`/v1/fs/tar?${q({ path: d.sandbox.root })}`, { method: 'PUT', body: archive });
  assert.equal(r.status, 204, await r.text());
  assert.equal(await fsp.readlink(path.join(d.sandbox.root, 'ok/link')), 'target.txt');
});
