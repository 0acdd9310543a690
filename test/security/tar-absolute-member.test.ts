// PUT /v1/fs/tar: absolute member names (tar tools often strip the `/`; here they are refused).

import { after, before, test } from 'node:test';
import path from 'node:path';
import { rawTar } from '../http/tar/raw-tar.js';
import { type Daemon, startDaemon } from '../http/harness.js';
import { assertRefusedUntouched } from './tar-attack.js';

let d: Daemon;
before(async () => {
  d = await startDaemon();
});
after(() => d.close());

test('an absolute member naming a file outside is refused', async () => {
  const name = path.join(d.sandbox.outside, 'secret.txt');
  await assertRefusedUntouched(d, rawTar([{ name, type: '0', content: 'pwned\n' }]), {
    status: 400,
    body: `refused tar member ${name}: path escapes the extraction root`,
  });
});

test('`/x` is refused', async () => {
  await assertRefusedUntouched(d, rawTar([{ name: '/x', type: '0', content: 'x' }]), { status: 400, body: 'refused tar member /x: path escapes the extraction root' });
});

test('a `.` member that is not a directory is refused', async () => {
  await assertRefusedUntouched(d, rawTar([{ name: '.', type: '0', content: 'x' }]), { status: 400, body: 'refused tar member .: the . member must be a directory' });
});
