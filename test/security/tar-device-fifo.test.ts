// PUT /v1/fs/tar: character and block devices and fifos (headers written by hand; packers refuse).

import { after, before, test } from 'node:test';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon();
});
after(() => d.close());

for (const [type, what] of [['3', 'character device'], ['4', 'block device'], ['6', 'fifo']] as const) {
  test(`a ${what} member is refused, and the files before it are not written`, async () => {
    const archive = rawTar([
      { name: 'before.txt', type: '0', content: 'x' },
      { name: 'node', type },
    ]);
    await assertRefusedUntouched(d, archive, { status: 400, body: 'refused tar member node: device and fifo members are not extractable' });
  });
}
