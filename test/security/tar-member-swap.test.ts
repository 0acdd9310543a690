// Attack: a member of GET /v1/fs/tar swapped between the listing and the moment its content is
// read. The listing (before the status line) opens no file; the files are opened while the archive
// is sent, through their directory opened and checked again, or (past the read-ahead hold) by path
// with every check. Between the two, the attacker replaces the file with a link to a file outside,
// replaces its directory with a link to a directory outside, or puts a fifo in its place. Each open
// refuses it (O_NOFOLLOW, a regular file, the descriptor's real path inside the policy): the member
// is left out, nothing outside is archived, and nothing hangs. A file already packed keeps the
// content read there, through the directory that was checked.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, beforeEach, test } from 'node:test';
import { PrefetchHold } from '../../src/http/tar/prefetch-budget.js';
import { walkTree } from '../../src/http/tar/tar-walk.js';
import { TreeTarStream } from '../../src/http/tar/tar-writer.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
beforeEach(async () => {
  await sb?.cleanup();
  sb = await makeSandbox({ 't/a.txt': 'inside a\n', 't/sub/b.txt': 'inside b\n', 't/c.txt': 'inside c\n', 't/z.txt': 'inside z\n' });
  await fsp.mkdir(path.join(sb.outside, 'sub'));
  await fsp.writeFile(path.join(sb.outside, 'sub/b.txt'), 'TOP SECRET b\n');
});
after(() => sb.cleanup());

const caps = { maxTarMembers: 1000, maxTarBytes: 1 << 20 };

/** Lists `t` with a hold of `holdBytes`, runs `swap`, then reads the whole archive. */
async function packWithSwap(holdBytes: number, swap: () => Promise<void>): Promise<Buffer> {
  const engine = await engineFor(sb.root);
  const top = await fsp.realpath(path.join(sb.root, 't'));
  const hold = new PrefetchHold(holdBytes);
  const items = await walkTree(engine.guard, top, 't', caps, hold);
  await swap();
  const chunks: Buffer[] = [];
  for await (const c of new TreeTarStream(items, engine.guard, hold)) chunks.push(c as Buffer);
  assert.equal(hold.holding, 0);
  return Buffer.concat(chunks);
}

/** The member names of an archive, as system tar lists them. */
async function listed(bytes: Buffer): Promise<string[]> {
  const file = path.join(sb.base, 'out.tar');
  await fsp.writeFile(file, bytes);
  return execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
}

test('a file left for later, swapped for a link to outside: left out, nothing outside archived', async () => {
  const bytes = await packWithSwap(0, async () => {
    await fsp.rm(path.join(sb.root, 't/a.txt'));
    await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 't/a.txt'));
  });
  assert.ok(!bytes.includes('TOP SECRET'), 'an outside file was archived');
  const names = await listed(bytes);
  assert.ok(!names.includes('./a.txt'), 'the swapped member was archived');
  assert.ok(names.includes('./c.txt') && names.includes('./z.txt'), 'the members after it are archived');
  assert.ok(bytes.includes('inside z'));
});

test('a directory swapped for a link to outside after the walk: its files are left out', async () => {
  const bytes = await packWithSwap(0, async () => {
    await fsp.rename(path.join(sb.root, 't/sub'), path.join(sb.base, 'moved-sub'));
    await fsp.symlink(path.join(sb.outside, 'sub'), path.join(sb.root, 't/sub'));
  });
  assert.ok(!bytes.includes('TOP SECRET'), 'a file of the outside directory was archived');
  assert.ok(!(await listed(bytes)).includes('./sub/b.txt'));
});

test('a file left for later, swapped for a fifo: left out without blocking', async () => {
  const bytes = await packWithSwap(0, async () => {
    await fsp.rm(path.join(sb.root, 't/c.txt'));
    execFileSync('mkfifo', [path.join(sb.root, 't/c.txt')]);
  });
  const names = await listed(bytes);
  assert.ok(!names.includes('./c.txt'));
  assert.ok(names.includes('./z.txt'));
});

test('a file swapped for a link after the listing, with the read-ahead open: left out, nothing outside archived', async () => {
  const bytes = await packWithSwap(1 << 20, async () => {
    await fsp.rm(path.join(sb.root, 't/a.txt'));
    await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 't/a.txt'));
  });
  assert.ok(!bytes.includes('TOP SECRET'));
  const names = await listed(bytes);
  assert.ok(!names.includes('./a.txt'), 'the swapped member was archived');
  assert.ok(names.includes('./c.txt') && bytes.includes('inside z'));
});

test('a file already packed keeps what was read through the checked directory', async () => {
  const engine = await engineFor(sb.root);
  const top = await fsp.realpath(path.join(sb.root, 't'));
  const hold = new PrefetchHold(1 << 20);
  const stream = new TreeTarStream(await walkTree(engine.guard, top, 't', caps, hold), engine.guard, hold);
  const chunks: Buffer[] = [];
  let swapped = false;
  for await (const c of stream) {
    chunks.push(c as Buffer);
    if (!swapped && Buffer.concat(chunks).includes('inside a')) {
      swapped = true;
      await fsp.rm(path.join(sb.root, 't/a.txt'));
      await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 't/a.txt'));
    }
  }
  assert.ok(swapped, 'a.txt was packed');
  const bytes = Buffer.concat(chunks);
  assert.ok(!bytes.includes('TOP SECRET'));
  assert.ok((await listed(bytes)).includes('./a.txt'));
});
