// Attack: learn the SHA-256 of a read-blocked file from a refusal. file_hash refuses `.env`, but a
// file_write, file_delete, file_chattr or file_rename with a wrong expectedSha256 used to answer
// "expected X, found <the real hash>": a guessable secret (a PIN) then falls offline. For a
// read-blocked file the mismatch says "does not match" without the hash, and no reply returns a
// hash the caller did not give (with require_hash off, a delete, rename or chattr needs one).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fails, ok, sha256 } from '../helpers/boundary.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

const SECRET = 'PIN=4821\n';
const REAL = sha256(SECRET);
const WRONG = sha256('PIN=0000\n');

function attempts(expected: string | undefined): Array<[string, Record<string, unknown>]> {
  const h = expected === undefined ? {} : { expectedSha256: expected };
  return [
    ['file_write', { files: { '.env': { content: 'PIN=1\n', ...h } } }],
    ['file_delete', { files: { '.env': { ...h, forceReferences: true } } }],
    ['file_chattr', { files: { '.env': { chattr: { chmod: 0o600 }, ...h } } }],
    ['file_rename', { files: { '.env': { destination: 'moved.env', ...h } } }],
  ];
}

describe('require_hash on (the default)', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox({ '.env': SECRET, 'open.txt': 'open\n' });
    mcp = await connectMcp(['--root', sb.root, '--read-block', '.env']);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('a wrong hash on a read-blocked file: "does not match", never the real hash, nothing changed', async () => {
    const snap = await snapshotTree(sb.root);
    for (const [tool, args] of attempts(WRONG)) {
      const e = await fails(mcp, tool, args);
      // a rename of a read-blocked file is refused outright (it would move the content where it can be read)
      if (tool === 'file_rename') assert.equal(e.code, 'path_denied');
      else {
        assert.equal(e.code, 'stale_or_missing_hash', tool);
        assert.match(e.message, /does not match/, tool);
      }
      assert.ok(!JSON.stringify(e).includes(REAL), `${tool}: ${JSON.stringify(e)}`);
    }
    const h = await ok<{ files: Array<{ sha256?: string; error?: { code: string } }> }>(mcp, 'file_hash', { filePaths: ['.env'] });
    assert.equal(h.files[0]!.error?.code, 'path_denied', 'file_hash refuses it, as before');
    assert.deepEqual(await snapshotTree(sb.root), snap);
  });

  test('a readable file still shows both hashes on a mismatch', async () => {
    const e = await fails(mcp, 'file_write', { files: { 'open.txt': { content: 'x\n', expectedSha256: WRONG } } });
    assert.ok(JSON.stringify(e).includes(sha256('open\n')));
  });
});

describe('require_hash off', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox({ '.env': SECRET });
    await fsp.writeFile(path.join(sb.root, 'hashline.toml'), '[safety]\nrequire_hash = false\n');
    mcp = await connectMcp(['--root', sb.root, '--read-block', '.env']);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('no reply returns the hash of a read-blocked file the caller did not give', async () => {
    for (const [tool, args] of attempts(undefined).slice(1)) {
      const e = await fails(mcp, tool, args);
      assert.equal(e.code, tool === 'file_rename' ? 'path_denied' : 'stale_or_missing_hash', tool);
      assert.ok(!JSON.stringify(e).includes(REAL), tool);
    }
    assert.equal(await fsp.readFile(path.join(sb.root, '.env'), 'utf8'), SECRET);
    const w = await ok(mcp, 'file_write', attempts(undefined)[0]![1]);
    assert.ok(!JSON.stringify(w).includes(REAL), JSON.stringify(w));
    assert.equal(await fsp.readFile(path.join(sb.root, '.env'), 'utf8'), 'PIN=1\n');
  });
});
