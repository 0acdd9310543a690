// Attack: delete a file that a read-blocked file imports, with the reference check claiming proof.
// With `--read-block private`, `private/uses.ts` imports `src/util2.ts`; the scan could not read it
// and still answered `referencesChecked: true, referenceVerificationBypassed: false`. A scan that
// cannot read every file that may import the target is no proof: reference_verification_failed
// (the blocked files counted, never named) unless forceReferences. An importer under a
// `.gitignore`d folder is scanned (the tools may read it) and refuses the delete as any other.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fails, ok, sha256 } from '../helpers/boundary.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

const UTIL = 'export const util2 = 2;\n';
const UTIL3 = 'export const util3 = 3;\n';
let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({
    'src/util2.ts': UTIL,
    'src/util3.ts': UTIL3,
    'src/free.ts': 'export const free = 1;\n',
    'private/uses.ts': "import { util2 } from '../src/util2';\nexport const x = util2;\n",
    '.gitignore': 'gen/\n',
    'gen/uses3.ts': "import { util3 } from '../src/util3';\nexport const y = util3;\n",
  });
  mcp = await connectMcp(['--root', sb.root, '--read-block', 'private']);
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

type Deleted = { files: Array<{ referencesChecked: boolean; referenceVerificationBypassed: boolean; notScanned?: { readBlocked: number } }> };

test('an importer the scan may not read makes the delete reference_verification_failed, naming nothing blocked', async () => {
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_delete', { files: { 'src/util2.ts': { expectedSha256: sha256(UTIL) } } });
  assert.equal(e.code, 'reference_verification_failed', JSON.stringify(e));
  assert.match(e.message, /1 read-blocked file/);
  assert.deepEqual(e.details?.notScanned, [{ filePath: 'src/util2.ts', readBlocked: 1 }]);
  assert.ok(!JSON.stringify(e).includes('uses.ts') && !JSON.stringify(e).includes('private'), JSON.stringify(e));
  assert.deepEqual(await snapshotTree(sb.root), snap, 'nothing was deleted');
});

test('forceReferences overrides it, and the reply says the verification was bypassed and what was not scanned', async () => {
  const d = await ok<Deleted>(mcp, 'file_delete', { files: { 'src/util2.ts': { expectedSha256: sha256(UTIL), forceReferences: true } } });
  assert.equal(d.files[0]!.referenceVerificationBypassed, true);
  assert.deepEqual(d.files[0]!.notScanned, { readBlocked: 1 });
  assert.ok(!existsSync(path.join(sb.root, 'src/util2.ts')));
});

test('an importer in a .gitignored folder is scanned and refuses the delete', async () => {
  const e = await fails(mcp, 'file_delete', { files: { 'src/util3.ts': { expectedSha256: sha256(UTIL3) } } });
  assert.equal(e.code, 'file_referenced', JSON.stringify(e));
  assert.match(e.message, /gen\/uses3\.ts:1/);
});

test('a file no blocked file could import is deleted with a proof', async () => {
  // the blocked file is TypeScript too, so any TS target counts it: a Python file is out of its reach
  await mcp.call('file_write', { files: { 'tool.py': { content: 'x = 1\n' } } });
  const d = await ok<Deleted>(mcp, 'file_delete', { files: { 'tool.py': { expectedSha256: sha256('x = 1\n') } } });
  assert.deepEqual([d.files[0]!.referencesChecked, d.files[0]!.referenceVerificationBypassed, d.files[0]!.notScanned], [true, false, undefined]);
});
