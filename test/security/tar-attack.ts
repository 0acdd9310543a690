// Shared by the tar attack tests: sends a hostile archive to PUT /v1/fs/tar on a live daemon and
// proves the refusal wrote nothing, inside the root or outside it.

import assert from 'node:assert/strict';
import { snapshotTree } from '../helpers/tmp-tree.js';
import { type Daemon, q } from '../http/harness.js';

export async function assertRefusedUntouched(d: Daemon, archive: Uint8Array<ArrayBuffer>, expected: { status: number; body: string | RegExp }, dest = d.sandbox.root): Promise<void> {
  const beforeRoot = await snapshotTree(d.sandbox.root);
  const beforeOutside = await snapshotTree(d.sandbox.outside);
  const r = await d.call(`/v1/fs/tar?${q({ path: dest })}`, { method: 'PUT', body: archive });
  const text = await r.text();
  assert.equal(r.status, expected.status, text);
  if (typeof expected.body === 'string') assert.equal(text, expected.body);
  else assert.match(text, expected.body);
  assert.deepEqual(await snapshotTree(d.sandbox.outside), beforeOutside, 'outside changed');
  assert.deepEqual(await snapshotTree(d.sandbox.root), beforeRoot, 'the root changed: a refused archive must write nothing');
}
