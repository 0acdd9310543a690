// PUT /v1/fs/tar: an archive with more members or bytes than the configured caps is refused with
// 413 before anything is written.

import { after, before, test } from 'node:test';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ limits: { maxTarMembers: 50, maxTarBytes: 4096 } });
});
after(() => d.close());

test('2,000 empty members over a cap of 50', async () => {
  const archive = rawTar(Array.from({ length: 2000 }, (_, i) => ({ name: `f${i}`, type: '0' as const })));
  await assertRefusedUntouched(d, archive, { status: 413, body: 'archive has more than 50 members' });
});

test('uncompressed bytes over the cap', async () => {
  const archive = rawTar([
    { name: 'a', type: '0', content: 'x'.repeat(3000) },
    { name: 'b', type: '0', content: 'y'.repeat(3000) },
  ]);
  await assertRefusedUntouched(d, archive, { status: 413, body: 'archive exceeds 4096 uncompressed bytes' });
});
