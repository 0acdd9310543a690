// Attack: a link swapped in between the check and the open (or the write). The guard checks the
// path, then the attacker replaces the file or a parent directory with a link to outside. What is
// opened is verified (O_NOFOLLOW on the last component, the descriptor's real path via /proc), so
// the swap is caught; nothing outside is read or changed and no temporary file is left behind.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, beforeEach, test } from 'node:test';
import { toHashlineError } from '../../src/core/errors/errors.js';
import { walkTree } from '../../src/http/tar/tar-walk.js';
import { TreeTarStream } from '../../src/http/tar/tar-writer.js';
import { writeAtomic } from '../../src/io/atomic-write.js';
import { readVerified } from '../../src/io/guard/open-verified.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { attack } from '../helpers/attack.js';
import { flipDirectory as flipDirectoryUntil, type Flipper } from '../helpers/dir-flipper.js';
import { callContext, engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
beforeEach(async () => {
  await sb?.cleanup();
  sb = await makeSandbox({ 'victim.txt': 'victim\n', 'dir/victim.txt': 'victim in dir\n' });
  await fsp.writeFile(path.join(sb.outside, 'victim.txt'), 'TOP SECRET\n');
});
after(() => sb.cleanup());

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return toHashlineError(e).code;
  }
};

test('read: the file is swapped for a link to outside after the check', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('victim.txt', 'read');
  await fsp.rm(path.join(sb.root, 'victim.txt'));
  await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'victim.txt'));
  assert.equal(await codeOf(readVerified(engine.guard, rp)), 'link_swapped');
});

test('read: a parent directory is swapped for a link to outside after the check', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('dir/victim.txt', 'read');
  await fsp.rename(path.join(sb.root, 'dir'), path.join(sb.root, 'dir.moved'));
  await fsp.symlink(sb.outside, path.join(sb.root, 'dir'));
  assert.equal(await codeOf(readVerified(engine.guard, rp)), 'link_swapped');
});

test('write: a parent directory is swapped for a link to outside after the check', async () => {
  const engine = await engineFor(sb.root);
  const snap = await snapshotTree(sb.outside);
  for (const name of ['dir/victim.txt', 'dir/new.txt']) {
    const rp = await engine.guard.resolve(name, 'write');
    await fsp.rename(path.join(sb.root, 'dir'), path.join(sb.root, 'dir.moved'));
    await fsp.symlink(sb.outside, path.join(sb.root, 'dir'));
    assert.equal(await codeOf(writeAtomic(engine.guard, rp, new TextEncoder().encode('PWNED'))), 'link_swapped', name);
    await fsp.rm(path.join(sb.root, 'dir'));
    await fsp.rename(path.join(sb.root, 'dir.moved'), path.join(sb.root, 'dir'));
  }
  assert.deepEqual(await snapshotTree(sb.outside), snap, 'outside unchanged, no temp file left there');
});

test('write: the file is swapped for a link after the check', async () => {
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('victim.txt', 'write');
  await fsp.rm(path.join(sb.root, 'victim.txt'));
  await fsp.symlink(path.join(sb.outside, 'victim.txt'), path.join(sb.root, 'victim.txt'));
  assert.equal(await codeOf(writeAtomic(engine.guard, rp, new TextEncoder().encode('PWNED'))), 'link_swapped');
  assert.equal(await fsp.readFile(path.join(sb.outside, 'victim.txt'), 'utf8'), 'TOP SECRET\n');
});

/** The flipper of `dir`, stopped by a file beside the sandbox's root. */
const flipDirectory = (dir: string, outside: string): Flipper => flipDirectoryUntil(dir, outside, `${path.dirname(sb.root)}/stop-flipping`);

test('a process flipping a directory between real and a link to outside never gets a read or write through', async () => {
  const engine = await engineFor(sb.root);
  const flipper = flipDirectory(path.join(sb.root, 'dir'), sb.outside);
  await flipper.ready;
  for (let attempts = 0; attempts < 100; attempts++) {
    const r = await attack(engine, 'dir/victim.txt');
    assert.ok(r.readText === undefined || !r.readText.includes('TOP SECRET'), 'a read leaked the outside file');
  }
  await flipper.stop();
  assert.equal(await fsp.readFile(path.join(sb.outside, 'victim.txt'), 'utf8'), 'TOP SECRET\n');
  const outsideNames = await fsp.readdir(sb.outside);
  assert.deepEqual(outsideNames.sort(), ['secret.txt', 'victim.txt']);
});

test('resolving through a link that is removed between its lstat and its readlink gives a coded answer, never an internal error', async () => {
  const engine = await engineFor(sb.root);
  const flipper = flipDirectory(path.join(sb.root, 'dir'), sb.outside);
  await flipper.ready;
  const codes = new Map<string, number>();
  const bothSides = () => (codes.get('ok') ?? 0) > 0 && (codes.get('symlink_escape') ?? 0) > 0;
  // at least 2,000 resolves, and on until both sides of the flip were met (at most 200,000)
  for (let i = 0; i < 200_000 && (i < 2000 || !bothSides()); i++) {
    const code = await codeOf(engine.guard.resolve('dir/victim.txt', 'read'));
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  await flipper.stop();
  const seen = Object.fromEntries(codes);
  assert.equal(codes.get('internal'), undefined, `uncoded errors: ${JSON.stringify(seen)}`);
  assert.ok(bothSides(), `both sides of the flip were met: ${JSON.stringify(seen)}`);
});

test('a symbol search while a directory flips to a link to outside never shows the outside file', async () => {
  await fsp.writeFile(path.join(sb.root, 'dir/victim.ts'), "export function findMe() { return 'inside'; }\n");
  await fsp.writeFile(path.join(sb.outside, 'victim.ts'), "export function findMe() { return 'TOP SECRET'; }\n");
  const engine = await engineFor(sb.root);
  const flipper = flipDirectory(path.join(sb.root, 'dir'), sb.outside);
  await flipper.ready;
  let found = 0;
  // at least 20 searches, and on until one ran while the directory was real (at most 2,000)
  for (let searches = 0; searches < 2000 && (searches < 20 || found === 0); searches++) {
    const out = await fsReadTool.run(engine, { targets: [{ path: '.', symbol: 'findMe' }] }, callContext());
    for (const r of out.structured.results ?? []) {
      assert.ok(!r.content.includes('TOP SECRET') && !(r.warnings ?? '').includes('TOP SECRET'), 'a search showed the outside file');
      if (r.content.includes('inside')) found++;
    }
  }
  await flipper.stop();
  // the race is real: some searches ran while the directory was real
  assert.ok(found > 0);
  assert.equal(await fsp.readFile(path.join(sb.outside, 'victim.ts'), 'utf8'), "export function findMe() { return 'TOP SECRET'; }\n");
});

test('a file replaced by rename after the open is not a swap: the read gets the version it opened', async () => {
  const { openVerified } = await import('../../src/io/guard/open-verified.js');
  const engine = await engineFor(sb.root);
  const rp = await engine.guard.resolve('victim.txt', 'read');
  const vh = await openVerified(engine.guard, rp, 'read');
  try {
    await fsp.writeFile(path.join(sb.root, 'victim.txt.new'), 'newer\n');
    await fsp.rename(path.join(sb.root, 'victim.txt.new'), path.join(sb.root, 'victim.txt'));
    assert.equal((await vh.handle.readFile()).toString(), 'victim\n');
  } finally {
    await vh.handle.close();
  }
  const { isOpenedPath } = await import('../../src/io/guard/open-verified.js');
  assert.equal(isOpenedPath('/r/a.txt (deleted)', '/r/a.txt'), true);
  assert.equal(isOpenedPath('/outside/a.txt (deleted)', '/r/a.txt'), false);
  assert.equal(isOpenedPath('/r/a.txt.bak', '/r/a.txt'), false);
});

test('a tar of a tree whose directory flips to a link to outside never holds an outside file', async () => {
  await fsp.mkdir(path.join(sb.root, 'top/dir/deep'), { recursive: true });
  await fsp.writeFile(path.join(sb.root, 'top/dir/victim.txt'), 'inside\n');
  await fsp.writeFile(path.join(sb.root, 'top/dir/deep/victim.txt'), 'inside deep\n');
  await fsp.mkdir(path.join(sb.outside, 'deep'));
  await fsp.writeFile(path.join(sb.outside, 'deep/victim.txt'), 'TOP SECRET deep\n');
  await fsp.symlink('TOP SECRET link target', path.join(sb.outside, 'deep/lnk'));
  await fsp.symlink('inside link target', path.join(sb.root, 'top/dir/deep/lnk'));
  const engine = await engineFor(sb.root);
  const top = await fsp.realpath(path.join(sb.root, 'top'));
  const caps = { maxTarMembers: 1000, maxTarBytes: 1 << 20 };
  const flipper = flipDirectory(path.join(sb.root, 'top/dir'), sb.outside);
  await flipper.ready;
  let withDeep = 0;
  // at least 20 archives, and on until one was made while the directory was real (at most 2,000)
  for (let archives = 0; archives < 2000 && (archives < 20 || withDeep === 0); archives++) {
    const chunks: Buffer[] = [];
    for await (const c of new TreeTarStream(await walkTree(engine.guard, top, 'top', caps), engine.guard)) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    assert.ok(!bytes.includes('TOP SECRET'), 'an archive held an outside file');
    if (bytes.includes('inside deep') && bytes.includes('inside link target')) withDeep++;
  }
  await flipper.stop();
  // the race is real: some walks ran while the directory was real
  assert.ok(withDeep > 0);
});
