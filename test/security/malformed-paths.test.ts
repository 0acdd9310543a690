// Attack: path forms with no safe meaning: NUL bytes, empty, `~`, backslashes, drive letters,
// UNC, control characters, absurd lengths. Each is refused with the `invalid_path` code.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { attack } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'a.txt': 'a\n' });
});
after(() => sb.cleanup());

const CASES = [
  '',
  'a.txt\0.png',
  '\0',
  '../outside/secret.txt\0',
  '~',
  '~/x',
  '~root/.ssh/id_rsa',
  '..\\outside\\secret.txt',
  'sub\\file.txt',
  'C:\\Windows\\win.ini',
  'C:',
  'c:/x',
  '\\\\server\\share\\x',
  'a\nb',
  'a\rb',
  'x\u0007y',
  'a'.repeat(5000),
];

test('malformed paths are refused with invalid_path; nothing changes', async () => {
  const engine = await engineFor(sb.root);
  const snap = await snapshotTree(sb.base);
  for (const p of CASES) {
    const r = await attack(engine, p);
    assert.equal(r.read, 'invalid_path', `read ${JSON.stringify(p.slice(0, 40))}`);
    assert.equal(r.write, 'invalid_path', `write ${JSON.stringify(p.slice(0, 40))}`);
  }
  assert.deepEqual(await snapshotTree(sb.base), snap);
});
