// Unrestricted file access: off by default (a path outside the root is refused), approved only by a
// person (`--unrestricted-file-access`, or `[files] access = "unrestricted"` in the configuration
// file as read at start: never a tool argument, never a reload). Approved, a path outside the root
// is read and written like one inside, while the rest holds: blocks and read blocks, the protected
// configuration file, hashline's state directory (the history), fresh hashes.

import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fails, ok, sha256 } from '../helpers/boundary.js';
import { connectMcp } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree } from '../helpers/tmp-tree.js';

type Read = { files: Array<{ content?: string; error?: { code: string; details?: Record<string, unknown> } }> };

test('restricted by default: a path outside the root is refused, and a reload cannot widen access', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    const target = path.join(sb.outside, 'new.txt');
    const e = await fails(mcp, 'file_write', { files: { [target]: { content: 'x\n' } } });
    assert.equal(e.code, 'path_denied');
    const caps = await ok<{ configuration: { access: string } }>(mcp, 'file_capabilities', { filePaths: ['a.txt'] });
    assert.equal(caps.configuration.access, 'restricted');
    const r = await ok<Read>(mcp, 'file_read', { files: [{ filePath: path.join(sb.outside, 'secret.txt') }] });
    assert.equal(r.files[0]!.error?.code, 'path_denied');
    // a person edits the configuration while the server runs: the key is valid, and it applies at the next start only
    await fsp.writeFile(path.join(sb.root, 'hashline.toml'), '[files]\naccess = "unrestricted"\n');
    const again = await fails(mcp, 'file_write', { files: { [target]: { content: 'x\n' } } });
    assert.equal(again.code, 'path_denied');
    assert.equal(existsSync(target), false);
    // a tool argument cannot ask for it
    const arg = await fails(mcp, 'file_write', { files: { [target]: { content: 'x\n' } }, access: 'unrestricted' });
    assert.equal(arg.code, 'invalid_arguments');
    assert.equal(existsSync(target), false);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});

for (const approval of ['flag', 'file'] as const) {
  test(`unrestricted (${approval}): outside paths are read and written; blocks, read blocks, the configuration, the state directory and hashes still hold`, async () => {
    const sb = await makeSandbox({ 'a.txt': 'a\n', ...(approval === 'file' ? { 'hashline.toml': '[files]\naccess = "unrestricted"\n' } : {}) });
    const state = path.join(sb.base, 'state');
    await fsp.mkdir(path.join(state, 'hashline'), { recursive: true });
    await fsp.writeFile(path.join(state, 'hashline', 'planted.txt'), 'state\n');
    await fsp.mkdir(path.join(sb.outside, 'blocked'));
    await fsp.writeFile(path.join(sb.outside, 'blocked', 'b.txt'), 'blocked\n');
    await fsp.mkdir(path.join(sb.outside, 'private'));
    await fsp.writeFile(path.join(sb.outside, 'private', 'p.txt'), 'private\n');
    const previous = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = state;
    const flags = ['--root', sb.root, '--block', path.join(sb.outside, 'blocked'), '--read-block', path.join(sb.outside, 'private')];
    const mcp = await connectMcp(approval === 'flag' ? [...flags, '--unrestricted-file-access'] : flags);
    if (previous === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = previous;
    try {
      const caps = await ok<{ configuration: { access: string } }>(mcp, 'file_capabilities', { filePaths: ['a.txt'] });
      assert.equal(caps.configuration.access, 'unrestricted');
      const secret = path.join(sb.outside, 'secret.txt');
      const r = await ok<Read>(mcp, 'file_read', { files: [{ filePath: secret, mode: 'text' }] });
      assert.equal(r.files[0]!.content, 'TOP SECRET\n');
      const made = path.join(sb.outside, 'deep', 'new.txt');
      await ok(mcp, 'file_write', { files: { [made]: { content: 'made\n' } } });
      assert.equal(await fsp.readFile(made, 'utf8'), 'made\n');
      // replacing still needs the fresh hash
      const stale = await fails(mcp, 'file_write', { files: { [secret]: { content: 'x\n' } } });
      assert.equal(stale.code, 'stale_or_missing_hash');
      await ok(mcp, 'file_write', { files: { [secret]: { content: 'replaced\n', expectedSha256: sha256('TOP SECRET\n') } } });
      assert.equal(await fsp.readFile(secret, 'utf8'), 'replaced\n');
      const outsideBefore = await snapshotTree(sb.outside);
      const stateBefore = await snapshotTree(state);
      const rootBefore = await snapshotTree(sb.root);
      // blocked: no write (reads follow read_block, which replaces block for reads when given)
      assert.equal((await fails(mcp, 'file_write', { files: { [path.join(sb.outside, 'blocked', 'n.txt')]: { content: 'n\n' } } })).code, 'path_denied');
      // read-blocked: not read, by any read tool
      const priv = await ok<Read>(mcp, 'file_read', { files: [{ filePath: path.join(sb.outside, 'private', 'p.txt') }] });
      assert.equal(priv.files[0]!.error?.code, 'path_denied');
      const fsRead = await mcp.call('fs_read', { targets: [{ path: path.join(sb.outside, 'private', 'p.txt') }] });
      assert.doesNotMatch(JSON.stringify(fsRead), /private\\n/);
      // the configuration file and the state directory: out of reach
      assert.equal((await fails(mcp, 'file_write', { files: { 'hashline.toml': { content: '[safety]\nrequire_hash = false\n' } } })).code, 'path_denied');
      const st = await ok<Read>(mcp, 'file_read', { files: [{ filePath: path.join(state, 'hashline', 'planted.txt') }] });
      assert.equal(st.files[0]!.error?.code, 'path_denied');
      assert.match(JSON.stringify(st.files[0]!.error), /state directory/);
      assert.equal((await fails(mcp, 'file_write', { files: { [path.join(state, 'hashline', 'x.sqlite')]: { content: '' } } })).code, 'path_denied');
      assert.deepEqual(await snapshotTree(sb.outside), outsideBefore);
      assert.deepEqual(await snapshotTree(state), stateBefore);
      assert.deepEqual(await snapshotTree(sb.root), rootBefore);
    } finally {
      await mcp.close();
      await sb.cleanup();
    }
  });
}
