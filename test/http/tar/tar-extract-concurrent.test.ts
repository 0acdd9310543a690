// PUT /v1/fs/tar writes small file members concurrently with the next ones: the result is what
// extracting member by member in archive order gives (a later member of the same path wins, a
// link or directory member waits for the files before it, a file under a file is refused), every
// member is whole, and no temporary or lock file is left.

import assert from 'node:assert/strict';
import { promises as fsp, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { isLockName } from '../../../src/core/lock-names.js';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { resolveLimits } from '../../../src/http/limits.js';
import { extractTarFromRequest } from '../../../src/http/tar/tar-extract.js';
import { createEngine } from '../../../src/tools/engine.js';
import { makeSandbox, snapshotTree } from '../../helpers/tmp-tree.js';
import { rawTar, type RawMember } from './raw-tar.js';

function request(body: Uint8Array): IncomingMessage {
  return Object.assign(Readable.from([Buffer.from(body)]), { headers: {}, complete: true }) as unknown as IncomingMessage;
}

async function extract(members: RawMember[]) {
  const sandbox = await makeSandbox({});
  const engine = await createEngine(mergeConfig({ root: sandbox.root, allow: [], block: [], readAllow: [], readBlock: [] }, { history: { store: 'memory' } } as never));
  const dest = path.join(sandbox.root, 'x');
  await fsp.mkdir(dest);
  let error: unknown;
  try {
    await extractTarFromRequest(engine, resolveLimits({ diskReserveBytes: 0 }), { path: dest }, request(rawTar(members)));
  } catch (e) {
    error = e;
  }
  return { sandbox, dest, error };
}

test('many small members, repeats, links, directories and a large member land as in archive order', async () => {
  const members: RawMember[] = [];
  const want = new Map<string, string>();
  const file = (name: string, content: string | Buffer) => {
    members.push({ name, type: '0', content });
    want.set(name, typeof content === 'string' ? content : content.toString('latin1'));
  };
  for (let d = 0; d < 5; d++) for (let i = 0; i < 40; i++) file(`d${d}/f${i}.txt`, `d${d} f${i}\n`.repeat(1 + i));
  file('d0/f3.txt', 'second copy wins\n');
  members.push({ name: 'ln', type: '2', linkname: 'd1/f1.txt' });
  file('d1/f1.txt', 'written after the link was made\n');
  members.push({ name: 'd9/', type: '5', mode: 0o750 });
  const big = Buffer.alloc(3 * 1024 * 1024, 7);
  file('d9/big.bin', big);
  file('d9/small.txt', 'after the large one\n');
  file('ln', 'a file where the link stood\n');
  const { sandbox, dest, error } = await extract(members);
  try {
    assert.equal(error, undefined, String(error));
    for (const [name, content] of want) assert.equal(readFileSync(path.join(dest, name), 'latin1'), content, name);
    assert.equal((await fsp.lstat(path.join(dest, 'ln'))).isFile(), true);
    const snap = await snapshotTree(dest);
    assert.equal(snap.get('d9'), 'dir:750');
    const leftovers = [...snap.keys()].filter((k) => k.includes(TEMP_MARKER) || isLockName(path.basename(k)));
    assert.deepEqual(leftovers, []);
    assert.equal([...snap.keys()].filter((k) => snap.get(k)!.startsWith('file:')).length, want.size);
  } finally {
    await sandbox.cleanup();
  }
});

test('a file member under a file member written just before it is refused; the first stays whole', async () => {
  const { sandbox, dest, error } = await extract([
    { name: 'a', type: '0', content: 'a file\n' },
    { name: 'a/b', type: '0', content: 'under a file\n' },
  ]);
  try {
    assert.ok(error, 'the extraction should fail');
    assert.equal((error as { code?: string }).code, 'tar_member_refused');
    assert.equal(readFileSync(path.join(dest, 'a'), 'utf8'), 'a file\n');
  } finally {
    await sandbox.cleanup();
  }
});
