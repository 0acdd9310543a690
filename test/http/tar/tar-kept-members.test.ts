// The pre-scan's copy of a small archive (tar-kept-members.ts): kept whole with each member's
// bytes, dropped when a file member is too large to keep, and either way PUT /v1/fs/tar leaves the
// same tree (from the copy, or parsed again). Real tar parsing, real HTTP on loopback.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { list as tarList, type ReadEntry } from 'tar';
import { KeptMembers, SMALL_MEMBER } from '../../../src/http/tar/tar-kept-members.js';
import { q, startDaemon } from '../harness.js';
import { rawTar, type RawMember } from './raw-tar.js';

async function keep(raw: Uint8Array): Promise<ReturnType<KeptMembers['members']>> {
  const archive = Buffer.from(raw);
  const kept = new KeptMembers();
  const parser = tarList({ onReadEntry: (e: ReadEntry) => kept.take(e) }) as unknown as NodeJS.WritableStream & NodeJS.EventEmitter;
  await new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
    // in uneven pieces, so a member's data arrives in several chunks
    for (let i = 0; i < archive.length; i += 700) parser.write(archive.subarray(i, i + 700));
    parser.end();
  });
  return kept.members();
}

const big = Buffer.alloc(SMALL_MEMBER + 1, 7);
const small: RawMember[] = [
  { name: 'd', type: '5' },
  { name: 'd/a.txt', type: '0', content: 'alpha\n'.repeat(300) },
  { name: 'd/empty', type: '0', content: '' },
  { name: 'd/l', type: '2', linkname: 'a.txt' },
  { name: 'b.bin', type: '0', content: new Uint8Array([1, 0, 255]) },
];

test('a small archive is kept whole: every member in order, each file with its own bytes', async () => {
  const members = await keep(rawTar(small));
  assert.ok(members, 'kept');
  assert.deepEqual(members.map((m) => [m.path, m.type]), [['d', 'Directory'], ['d/a.txt', 'File'], ['d/empty', 'File'], ['d/l', 'SymbolicLink'], ['b.bin', 'File']]);
  assert.equal(members[1]!.data!.toString('utf8'), 'alpha\n'.repeat(300));
  assert.equal(members[2]!.data!.length, 0);
  assert.deepEqual([...members[4]!.data!], [1, 0, 255]);
  assert.equal(members[3]!.linkpath, 'a.txt');
});

test('a file member over the size kept drops the copy (the archive is parsed again)', async () => {
  assert.equal(await keep(rawTar([...small, { name: 'big.bin', type: '0', content: big }])), undefined);
});

test('PUT /v1/fs/tar leaves the same tree from the copy and from a second parse', async () => {
  const d = await startDaemon();
  try {
    const withBig = [...small, { name: 'z/big.bin', type: '0' as const, content: big }, { name: 'z/after.txt', type: '0' as const, content: 'after\n' }];
    for (const [dest, members] of [['kept', small], ['parsed', withBig]] as const) {
      const r = await d.call(`/v1/fs/tar?${q({ path: path.join(d.sandbox.root, dest) })}`, { method: 'PUT', body: rawTar(members) });
      assert.equal(r.status, 204, await r.text());
    }
    for (const dest of ['kept', 'parsed']) {
      const at = (p: string) => path.join(d.sandbox.root, dest, p);
      assert.equal(await fsp.readFile(at('d/a.txt'), 'utf8'), 'alpha\n'.repeat(300), dest);
      assert.equal((await fsp.readFile(at('d/empty'))).length, 0, dest);
      assert.equal(await fsp.readlink(at('d/l')), 'a.txt', dest);
      assert.deepEqual([...(await fsp.readFile(at('b.bin')))], [1, 0, 255], dest);
    }
    assert.ok((await fsp.readFile(path.join(d.sandbox.root, 'parsed/z/big.bin'))).equals(big));
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'parsed/z/after.txt'), 'utf8'), 'after\n');
  } finally {
    await d.close();
  }
});
