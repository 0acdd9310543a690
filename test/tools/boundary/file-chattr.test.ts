// file_chattr over a real `hashline mcp`: modes applied to a batch, the bounds (0..0o777; setuid,
// setgid and sticky refused with chattr_refused), the owner rule ([files.chattr] chown), hashes,
// write policy, and nothing changed by a refused batch.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
const at = (rel: string) => path.join(sb.root, rel);
const modeOf = async (rel: string) => (await fsp.stat(at(rel))).mode & 0o7777;

before(async () => {
  sb = await makeSandbox({ 'run.sh': 'echo\n', 'data.txt': 'data\n', 'locked/x.txt': 'x\n' });
  await fsp.chmod(at('run.sh'), 0o644);
  mcp = await connectMcp(['--root', sb.root, '--block', at('locked')]);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

type Changed = { files: Array<{ filePath: string; sha256: string; chattr: { chmod: number; chown: { uid: number; gid: number } }; previous: { chmod: number } }> };

test('modes are set for the whole batch and the reply gives the attributes before and after', async () => {
  const st = await fsp.stat(at('run.sh'));
  const dataMode = await modeOf('data.txt');
  const data = await ok<Changed>(mcp, 'file_chattr', {
    files: {
      'run.sh': { chattr: { chmod: 0o755 }, expectedSha256: sha256('echo\n') },
      'data.txt': { chattr: { chmod: 0o600, chown: { uid: st.uid, gid: st.gid } }, expectedSha256: sha256('data\n') },
    },
  });
  assert.deepEqual(
    data.files.map((f) => [f.filePath, f.chattr.chmod, f.previous.chmod, f.sha256]),
    [
      ['run.sh', 0o755, 0o644, sha256('echo\n')],
      ['data.txt', 0o600, dataMode, sha256('data\n')],
    ],
  );
  assert.equal(await modeOf('run.sh'), 0o755);
  assert.equal(await modeOf('data.txt'), 0o600);
});

test('setuid, setgid and sticky bits are chattr_refused; out-of-range modes are invalid_arguments; nothing changes', async () => {
  const snap = await snapshotTree(sb.root);
  for (const chmod of [0o4755, 0o2755, 0o1777, 0o6777]) {
    const e = await fails(mcp, 'file_chattr', { files: { 'run.sh': { chattr: { chmod }, expectedSha256: sha256('echo\n') } } });
    assert.equal(e.code, 'chattr_refused', chmod.toString(8));
    assert.equal(e.details?.filePath, 'run.sh');
    assert.match(e.message, /setuid, setgid or sticky/);
  }
  for (const chmod of [-1, 0o10000, 1.5, '755']) {
    const e = await fails(mcp, 'file_chattr', { files: { 'run.sh': { chattr: { chmod }, expectedSha256: sha256('echo\n') } } });
    assert.equal(e.code, 'invalid_arguments', String(chmod));
  }
  const empty = await fails(mcp, 'file_chattr', { files: { 'run.sh': { chattr: {}, expectedSha256: sha256('echo\n') } } });
  assert.equal(empty.code, 'invalid_arguments');
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('a chown to another owner is refused by default; one refused entry stops the whole batch', async () => {
  const st = await fsp.stat(at('data.txt'));
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_chattr', {
    files: {
      'run.sh': { chattr: { chmod: 0o700 }, expectedSha256: sha256('echo\n') },
      'data.txt': { chattr: { chown: { uid: st.uid + 1, gid: st.gid } }, expectedSha256: sha256('data\n') },
    },
  });
  assert.equal(e.code, 'chattr_refused');
  assert.equal(e.details?.filePath, 'data.txt');
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('hashes are required and checked; blocked and outside paths are path_denied; a directory is refused', async () => {
  const snap = await snapshotTree(sb.root);
  const outside = await snapshotTree(sb.outside);
  const missing = await fails(mcp, 'file_chattr', { files: { 'run.sh': { chattr: { chmod: 0o700 } } } });
  assert.equal(missing.code, 'stale_or_missing_hash');
  assert.equal(missing.details?.reason, 'missing');
  const stale = await fails(mcp, 'file_chattr', { files: { 'run.sh': { chattr: { chmod: 0o700 }, expectedSha256: sha256('other') } } });
  assert.equal(stale.details?.reason, 'mismatch');
  for (const p of ['locked/x.txt', '../outside/secret.txt']) {
    const e = await fails(mcp, 'file_chattr', { files: { [p]: { chattr: { chmod: 0o777 }, expectedSha256: sha256('x\n') } } });
    assert.equal(e.code, 'path_denied', p);
  }
  await fsp.mkdir(at('adir'));
  const dir = await fails(mcp, 'file_chattr', { files: { adir: { chattr: { chmod: 0o700 }, expectedSha256: sha256('') } } });
  assert.equal(dir.code, 'is_directory');
  const gone = await fails(mcp, 'file_chattr', { files: { 'gone.txt': { chattr: { chmod: 0o700 }, expectedSha256: sha256('') } } });
  assert.equal(gone.code, 'not_found');
  const snapNow = await snapshotTree(sb.root);
  snapNow.delete('adir');
  assert.deepEqual(snapNow, snap);
  assert.deepEqual(await snapshotTree(sb.outside), outside);
});

test('with [files.chattr] chown = "any" the operating system decides a chown', async () => {
  const other = await makeSandbox({ 'f.txt': 'f\n' });
  const config = path.join(other.base, 'ops.toml');
  await fsp.writeFile(config, '[files.chattr]\nchown = "any"\n');
  const server = await connectMcp(['--root', other.root, '--config', config]);
  try {
    const st = await fsp.stat(path.join(other.root, 'f.txt'));
    const target = { uid: st.uid + 4242, gid: st.gid + 4242 };
    const r = await server.call('file_chattr', { files: { 'f.txt': { chattr: { chown: target }, expectedSha256: sha256('f\n') } } });
    const env = r.structuredContent as { ok: boolean; error?: { code: string } };
    const after = await fsp.stat(path.join(other.root, 'f.txt'));
    if (process.getuid?.() === 0) {
      assert.equal(env.ok, true, JSON.stringify(env.error));
      assert.deepEqual({ uid: after.uid, gid: after.gid }, target);
    } else {
      // not permitted to an ordinary user: refused by the system, and nothing changed
      assert.equal(env.ok, false);
      assert.equal(env.error?.code, 'io_error');
      assert.deepEqual({ uid: after.uid, gid: after.gid }, { uid: st.uid, gid: st.gid });
    }
  } finally {
    await server.close();
    await other.cleanup();
  }
});
