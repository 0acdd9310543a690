// PUT /v1/fs/tar with a body that is a cut archive: made by the tar package from five real files,
// then cut inside a member header (the first 1,100 bytes), on a member boundary (no end-of-archive
// block at all), inside a member's data, or to nothing. Every cut is `400 malformed or truncated
// body` with nothing written; a cut inside the end-of-archive blocks, after the first zero block,
// loses no member and is extracted.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { create } from 'tar';
import { MALFORMED_BODY } from '../../../src/core/messages/http.js';
import { snapshotTree } from '../../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../harness.js';

let d: Daemon;
let archive: Buffer;
const NAMES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

before(async () => {
  d = await startDaemon({ files: { 'keep.txt': 'keep\n' } });
  const src = path.join(d.sandbox.base, 'src');
  await fsp.mkdir(src);
  for (const n of NAMES) await fsp.writeFile(path.join(src, n), n[0]!.repeat(300));
  const chunks: Buffer[] = [];
  const pack = create({ cwd: src, portable: true, sync: true }, NAMES) as unknown as NodeJS.EventEmitter;
  pack.on('data', (c: Buffer) => chunks.push(c));
  archive = Buffer.concat(chunks);
  // five members of one header and one data block each, then the end-of-archive blocks
  assert.ok(archive.length >= 5 * 1024 + 1024, String(archive.length));
});
after(() => d.close());

const put = (dest: string, body: Uint8Array) => d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: new Uint8Array(body) });

const CUTS: Array<[string, () => number]> = [
  ['inside the second member header (1,100 bytes)', () => 1100],
  ['on a member boundary, no end-of-archive block', () => 1024],
  ['after the last member, before the end-of-archive blocks', () => 5 * 1024],
  ['inside the first member data', () => 600],
  ['to nothing', () => 0],
];

for (const [name, cut] of CUTS) {
  test(`cut ${name} → 400 ${MALFORMED_BODY}, nothing written`, async () => {
    const dest = path.join(d.sandbox.root, 'x');
    const beforeRoot = await snapshotTree(d.sandbox.root);
    const r = await put(dest, archive.subarray(0, cut()));
    assert.equal(r.status, 400);
    assert.equal(await r.text(), MALFORMED_BODY);
    assert.deepEqual(await snapshotTree(d.sandbox.root), beforeRoot);
  });
}

test('cut after the first end-of-archive block: every member lands', async () => {
  const dest = path.join(d.sandbox.root, 'y');
  const r = await put(dest, archive.subarray(0, 5 * 1024 + 512));
  assert.equal(r.status, 204, await r.text());
  for (const n of NAMES) assert.equal(await fsp.readFile(path.join(dest, n), 'utf8'), n[0]!.repeat(300));
});
