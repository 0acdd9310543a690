// PUT /v1/fs/tar with hostile modes: a `.` member with mode 0 would chmod the extraction root to 0
// and lock its owner out (every later call 500 EACCES, beyond repair through the API when the
// daemon does not run as root). Modes follow CPython's `data` filter instead: the root keeps its
// mode, directories always get u+rwx, files always get u+rw and keep execute bits only with u+x.
// (Root ignores modes, so the lock-out itself shows only for a daemon run as a user: the tests pin
// the modes that cause it.)

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Pack } from 'tar';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { rawTar } from '../http/tar/raw-tar.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ files: { 'keep.txt': 'keep\n' } });
});
after(() => d.close());

const modeOf = async (p: string) => (await fsp.lstat(p)).mode & 0o7777;
const put = (dest: string, body: Uint8Array<ArrayBuffer>) => d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body });

test('a `.` member with mode 0 leaves the extraction root as it was; later calls still work', async () => {
  const dest = path.join(d.sandbox.root, 'proj');
  await fsp.mkdir(dest, { mode: 0o750 });
  await fsp.chmod(dest, 0o750);
  const rootMode = await modeOf(d.sandbox.root);
  for (const name of ['./', '.', 'sub/..']) {
    const r = await put(dest, rawTar([{ name, type: '5', mode: 0 }, { name: 'a.txt', type: '0', content: 'a\n', mode: 0o644 }]));
    assert.equal(r.status, 204, await r.text());
    assert.equal(await modeOf(dest), 0o750, `member ${name} changed the root's mode`);
  }
  assert.equal(await modeOf(d.sandbox.root), rootMode);
  // the daemon can still work in it: a write, a read and a tar of the directory
  assert.equal((await d.call(`/v1/fs/file?${q({ path: 'proj/b.txt' })}`, { method: 'PUT', body: 'b\n' })).status, 204);
  assert.equal(await (await d.call(`/v1/fs/file?${q({ path: 'proj/a.txt' })}`)).text(), 'a\n');
  assert.equal((await d.call(`/v1/fs/tar?${q({ path: 'proj' })}`)).status, 200);
});

test('an extraction into the project root itself never chmods it', async () => {
  const before = await modeOf(d.sandbox.root);
  const r = await put(d.sandbox.root, rawTar([{ name: './', type: '5', mode: 0o000 }]));
  assert.equal(r.status, 204, await r.text());
  assert.equal(await modeOf(d.sandbox.root), before);
});

test('directory and file modes: u+rwx on directories, u+rw on files, x only with u+x, no special bits', async () => {
  const dest = path.join(d.sandbox.root, 'modes');
  const r = await put(dest, rawTar([
    { name: 'locked/', type: '5', mode: 0o000 },
    { name: 'locked/inner/', type: '5', mode: 0o555 },
    { name: 'locked/inner/none.txt', type: '0', content: 'n\n', mode: 0o000 },
    { name: 'private/', type: '5', mode: 0o700 },
    { name: 'group/', type: '5', mode: 0o2775 },
    { name: 'ro.txt', type: '0', content: 'r\n', mode: 0o444 },
    { name: 'gx.sh', type: '0', content: 'x\n', mode: 0o011 },
    { name: 'run.sh', type: '0', content: 'x\n', mode: 0o6777 },
  ]));
  assert.equal(r.status, 204, await r.text());
  const expected: Array<[string, number]> = [
    ['locked', 0o700],
    ['locked/inner', 0o755],
    ['locked/inner/none.txt', 0o600],
    ['private', 0o700],
    ['group', 0o755],
    ['ro.txt', 0o644],
    ['gx.sh', 0o600],
    ['run.sh', 0o755],
  ];
  for (const [rel, mode] of expected) assert.equal((await modeOf(path.join(dest, rel))).toString(8), mode.toString(8), rel);
  // a second extraction over the tree works (nothing made it unwritable for its owner)
  const again = await put(dest, rawTar([{ name: 'locked/inner/none.txt', type: '0', content: 'again\n' }]));
  assert.equal(again.status, 204, await again.text());
});

test('an archive made by the tar package from a real tree with mode-0 entries', async () => {
  const src = path.join(d.sandbox.base, 'src-tree');
  await fsp.mkdir(path.join(src, 'd'), { recursive: true });
  await fsp.writeFile(path.join(src, 'd/f.txt'), 'f\n');
  await fsp.chmod(path.join(src, 'd/f.txt'), 0);
  await fsp.chmod(path.join(src, 'd'), 0o500);
  await fsp.chmod(src, 0o500);
  const chunks: Buffer[] = [];
  const pack = new Pack({ cwd: src, portable: true });
  pack.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  pack.add('.');
  pack.end();
  await done;
  await fsp.chmod(src, 0o755);
  await fsp.chmod(path.join(src, 'd'), 0o755);
  const dest = path.join(d.sandbox.root, 'from-pack');
  await fsp.mkdir(dest);
  const r = await put(dest, new Uint8Array(Buffer.concat(chunks)));
  assert.equal(r.status, 204, await r.text());
  assert.equal((await modeOf(dest)).toString(8), (0o777 & ~process.umask()).toString(8));
  assert.equal((await modeOf(path.join(dest, 'd'))).toString(8), '700');
  assert.equal((await modeOf(path.join(dest, 'd/f.txt'))).toString(8), '600');
});
