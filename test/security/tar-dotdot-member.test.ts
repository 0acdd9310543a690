// PUT /v1/fs/tar: members whose names climb out of the extraction root with `..`.

import { after, before, test } from 'node:test';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ files: { 'sub/keep.txt': 'keep\n' } });
});
after(() => d.close());

for (const name of ['../x', '../outside/secret.txt', 'a/../../x', 'sub/../../outside/new.txt', '..']) {
  test(`member ${name} is refused and nothing is written`, async () => {
    const archive = rawTar([
      { name: 'fine.txt', type: '0', content: 'fine\n' },
      { name, type: '0', content: 'pwned\n' },
    ]);
    await assertRefusedUntouched(d, archive, { status: 400, body: `refused tar member ${name}: path escapes the extraction root` });
  });
}

test('into a sub-directory, `..` back up to the root is still outside the extraction root', async () => {
  const archive = rawTar([{ name: '../escaped.txt', type: '0', content: 'x' }]);
  await assertRefusedUntouched(d, archive, { status: 400, body: 'refused tar member ../escaped.txt: path escapes the extraction root' }, `${d.sandbox.root}/sub`);
});
