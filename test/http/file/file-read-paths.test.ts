// GET /v1/fs/file reads a plain small file in one synchronous pass that skips the guard's lstat of
// the name (io/read/read-verified-sync.ts `readByNameSync`); every other case falls back to the full
// guard path. These pin that both give the same answers: links inside and out, block lists, a
// fifo, a parent flipped to a link to outside while reads run, and the guard's `viaLink`.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODE_HEADER } from '../../../src/http/error-reply.js';
import { PathGuard } from '../../../src/io/guard/path-guard.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../harness.js';

describe('GET /v1/fs/file: plain and linked paths', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({
      files: { 'a.txt': 'one\ntwo\n', 'dir/x.txt': 'x\n', 'secret/s.txt': 'blocked\n', 'flip/victim.txt': 'victim\n' },
      block: ['secret'],
    });
    const root = d.sandbox.root;
    await fsp.writeFile(path.join(d.sandbox.outside, 'victim.txt'), 'TOP SECRET\n');
    await fsp.symlink('a.txt', path.join(root, 'alias'));
    await fsp.symlink('dir', path.join(root, 'dir-link'));
    await fsp.symlink(d.sandbox.outside, path.join(root, 'out-dir'));
    await fsp.symlink('..', path.join(root, 'up'));
    await fsp.symlink('secret/s.txt', path.join(root, 'to-blocked'));
    await fsp.symlink('../../outside/secret.txt', path.join(root, 'dir/leak'));
    spawnSync('mkfifo', [path.join(root, 'fifo')]);
  });
  after(() => d.close());

  const get = async (p: string) => {
    const r = await d.call(`/v1/fs/file?${q({ path: p })}`);
    return { status: r.status, code: r.headers.get(ERROR_CODE_HEADER), body: await r.text() };
  };

  const ROWS: Array<[string, number, string | null, string | null]> = [
    ['a.txt', 200, null, 'one\ntwo\n'],
    ['dir/x.txt', 200, null, 'x\n'],
    ['alias', 200, null, 'one\ntwo\n'],
    ['dir-link/x.txt', 200, null, 'x\n'],
    ['dir-link/../a.txt', 200, null, 'one\ntwo\n'],
    ['out-dir/secret.txt', 403, 'symlink_escape', null],
    ['up/outside/secret.txt', 403, 'symlink_escape', null],
    ['dir/leak', 403, 'symlink_escape', null],
    ['secret/s.txt', 403, 'path_blocked', null],
    ['to-blocked', 403, 'path_blocked', null],
    ['dir/missing.txt', 404, 'not_found', null],
    ['a.txt/below', 404, 'not_found', null],
  ];
  for (const [p, status, code, body] of ROWS) {
    test(`${p} → ${status}${code ? ` ${code}` : ''}`, async () => {
      const r = await get(p);
      assert.equal(r.status, status);
      assert.equal(r.code, code);
      if (body !== null) assert.equal(r.body, body);
      assert.doesNotMatch(r.body, /TOP SECRET|blocked\n/);
    });
  }

  test('a fifo → 400 not_regular_file, without blocking', { skip: process.platform === 'win32' }, async () => {
    const r = await get('fifo');
    assert.equal(r.status, 400);
    assert.equal(r.code, 'not_regular_file');
  });

  test('a parent flipped to a link to outside while reads run: never the outside file', async () => {
    const root = d.sandbox.root;
    let flips = 0;
    let stop = false;
    const flipper = (async () => {
      while (!stop) {
        await fsp.rename(path.join(root, 'flip'), path.join(root, 'flip.real'));
        await fsp.symlink(d.sandbox.outside, path.join(root, 'flip'));
        await fsp.rm(path.join(root, 'flip'));
        await fsp.rename(path.join(root, 'flip.real'), path.join(root, 'flip'));
        flips++;
      }
    })();
    const seen = new Map<number, number>();
    try {
      for (let i = 0; i < 300; i++) {
        const r = await get('flip/victim.txt');
        assert.doesNotMatch(r.body, /TOP SECRET/);
        if (r.status === 200) assert.equal(r.body, 'victim\n');
        else assert.ok([403, 404].includes(r.status), `status ${r.status} ${r.code}: ${r.body}`);
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
      }
    } finally {
      // the flipper stops whatever happened above (left running, it keeps the process alive)
      stop = true;
      await flipper;
    }
    assert.ok(flips > 0);
    assert.ok((seen.get(200) ?? 0) > 0, 'some reads landed between flips');
  });
});

describe('PathGuard.resolve viaLink (spared lstat when the walk followed no link)', () => {
  test('a plain file, a final link, a file under a linked parent, and a root given as a link', async () => {
    const sb = await makeSandbox({ 'a.txt': 'a\n', 'dir/x.txt': 'x\n' });
    try {
      await fsp.symlink('a.txt', path.join(sb.root, 'alias'));
      await fsp.symlink('dir', path.join(sb.root, 'dir-link'));
      await fsp.symlink('dangling-target', path.join(sb.root, 'dangling'));
      const guard = await PathGuard.create({ root: sb.root });
      const via = async (p: string) => (await guard.resolve(p, 'read')).viaLink;
      assert.equal(await via('a.txt'), false);
      assert.equal(await via('missing.txt'), false);
      assert.equal(await via('alias'), true);
      assert.equal(await via('dangling'), true);
      assert.equal(await via('dir-link'), true);
      assert.equal(await via('dir-link/x.txt'), false);
      const rootLink = path.join(sb.base, 'root-link');
      await fsp.symlink(sb.root, rootLink);
      const linked = await PathGuard.create({ root: rootLink });
      assert.equal((await linked.resolve('.', 'read')).viaLink, true);
      assert.equal((await linked.resolve('a.txt', 'read')).viaLink, false);
      assert.equal((await linked.resolve('alias', 'read')).viaLink, true);
    } finally {
      await sb.cleanup();
    }
  });
});
