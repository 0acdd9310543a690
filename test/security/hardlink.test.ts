// Attack: a hard link inside the root to a file outside. A hard link is the same file, so the guard
// cannot tell it apart by path; writes replace the name inside the root by rename and so never
// change the outside file's content.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { attack, MARKER } from '../helpers/attack.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox();
  await fsp.link(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'hard.txt'));
});
after(() => sb.cleanup());

test('writing through a hard link to an outside file leaves the outside file unchanged', async () => {
  const engine = await engineFor(sb.root);
  const r = await attack(engine, 'hard.txt');
  assert.equal(r.write, 'ok');
  assert.equal(await fsp.readFile(path.join(sb.root, 'hard.txt'), 'utf8'), MARKER);
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});
