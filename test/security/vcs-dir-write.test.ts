// Attack: code execution at the user's next `git status`. The agent writes a script and sets
// `core.fsmonitor` in `.git/config` (or drops a hook, or repoints a worktree's `.git` file); git
// runs it as the user. `.git/`, `.hg/` and `.svn/` are read-only for every tool and route by
// default: writes, deletes, renames in and out, chattr, tar members, fs_edit, fs_write,
// fs_rollback and the console's restore are refused, and nothing under the root changes. Reads
// still work, and `[files] write_vcs_dirs = true` opens them.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { callTool } from '../../src/api/call-tool.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { sha256 } from '../helpers/boundary.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';
import { login } from '../http/console/console-session.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { rawTar } from '../http/tar/raw-tar.js';
import { assertRefusedUntouched } from './tar-attack.js';

const CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const EVIL = `${CONFIG}\tfsmonitor = .git/fsmonitor.sh\n`;
const FILES = {
  '.git/config': CONFIG,
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/hooks/pre-commit.sample': '#!/bin/sh\n',
  '.hg/hgrc': '[paths]\n',
  '.svn/entries': '12\n',
  'sub/.git': 'gitdir: ../.git\n',
  'a.txt': 'a\n',
};

describe('over MCP (a spawned hashline mcp)', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox(FILES);
    mcp = await connectMcp(['--root', sb.root]);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('every writing tool is refused inside .git, .hg and .svn; nothing changes; reads still work', async () => {
    const read = await mcp.call('fs_read', { targets: [{ path: '.git/config' }] });
    assert.notEqual(read.isError, true, textOf(read));
    const tag = /#([0-9A-F]{4})/.exec(textOf(read))![1]!;
    const snap = await snapshotTree(sb.root);
    const h = sha256(CONFIG);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['fs_write', { targets: [{ path: '.git/config', text: EVIL }] }],
      ['fs_write', { targets: [{ path: '.git/fsmonitor.sh', text: '#!/bin/sh\ntouch /tmp/pwned\n' }] }],
      ['fs_write', { targets: [{ path: '.GIT/config', text: EVIL }] }],
      ['fs_write', { targets: [{ path: '.hg/hgrc', text: '[hooks]\npre-status = touch /tmp/pwned\n' }] }],
      ['fs_write', { targets: [{ path: '.svn/entries', text: 'x\n' }] }],
      ['fs_write', { targets: [{ path: 'sub/.git', text: 'gitdir: /tmp/evil\n' }] }],
      ['fs_write', { targets: [{ path: 'new/.git/config', text: EVIL }] }],
      ['fs_edit', { targets: [{ path: '.git/config', file_hash: tag, ops: 'insert after 2:\n+\tfsmonitor = x' }] }],
      ['fs_rollback', { path: '.git/config', hash: '' }],
      ['file_write', { files: { '.git/config': { content: EVIL, expectedSha256: h } } }],
      ['file_write', { files: { '.git/hooks/pre-commit': { content: '#!/bin/sh\n', chattr: { chmod: 0o755 } } } }],
      ['file_patch', { files: { '.git/config': { patchStrategy: 'aider_block', expectedSha256: h, aiderBlocks: [{ search: CONFIG, replace: EVIL }] } } }],
      ['file_chattr', { files: { '.git/hooks/pre-commit.sample': { chattr: { chmod: 0o755 }, expectedSha256: sha256('#!/bin/sh\n') } } }],
      ['file_delete', { files: { '.git/HEAD': { expectedSha256: sha256('ref: refs/heads/main\n'), forceReferences: true } } }],
      ['file_rename', { files: { '.git/HEAD': { destination: 'HEAD', expectedSha256: sha256('ref: refs/heads/main\n') } } }],
      ['file_rename', { files: { 'a.txt': { destination: '.git/hooks/pre-commit', expectedSha256: sha256('a\n') } } }],
    ];
    for (const [tool, args] of calls) {
      const r = await mcp.call(tool, args);
      // every refusal is an error (a batch in which nothing was written is one); the boundary family and
      // fs_rollback name the code, fs_write and fs_edit word the refusal of each target in their reply
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
      assert.match(JSON.stringify(r), /path_blocked|path_denied|version-control folder/, `${tool}: ${textOf(r)}`);
      assert.match(JSON.stringify(r), /version-control folder/, `${tool}: ${textOf(r)}`);
    }
    assert.deepEqual(await snapshotTree(sb.root), snap);
  });
});

describe('over HTTP (hashline serve on loopback)', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ token: 't', files: FILES });
  });
  after(() => d.close());

  test('PUT /v1/fs/file into .git is 403 path_blocked and writes nothing', async () => {
    const snap = await snapshotTree(d.sandbox.root);
    for (const p of ['.git/config', '.git/hooks/pre-commit', '.hg/hgrc', 'sub/.git']) {
      const r = await d.call(`/v1/fs/file?${q({ path: p })}`, { method: 'PUT', body: EVIL });
      assert.equal(r.status, 403, p);
      assert.equal(r.headers.get('hashline-error-code'), 'path_blocked');
    }
    assert.deepEqual(await snapshotTree(d.sandbox.root), snap);
    const g = await d.call(`/v1/fs/file?${q({ path: '.git/config' })}`);
    assert.equal(g.status, 200, 'reads still work');
  });

  test('a PUT /v1/fs/tar member inside .git is refused, and the archive writes nothing', async () => {
    for (const name of ['.git/hooks/pre-commit', '.git/config', 'x/.svn/entries']) {
      await assertRefusedUntouched(d, rawTar([{ name: 'ok.txt', type: '0', content: 'fine\n' }, { name, type: '0', content: EVIL }]), {
        status: 403,
        body: /version-control folder/,
      });
    }
  });

  test("the console's restore of a .git version is refused", async () => {
    assert.equal((await callTool(d.engine, fsReadTool, { targets: [{ path: '.git/config' }] })).ok, true);
    await fsp.writeFile(path.join(d.sandbox.root, '.git/config'), EVIL);
    assert.equal((await callTool(d.engine, fsReadTool, { targets: [{ path: '.git/config' }] })).ok, true);
    await d.engine.history.flush();
    const s = await login(d, 't');
    const tl = JSON.parse(await (await s.call(`/console/api/timeline?${q({ path: '.git/config' })}`)).text()) as { entries: Array<{ id: number }> };
    assert.ok(tl.entries.length >= 2, JSON.stringify(tl));
    const rb = await s.post('/console/api/rollback', { id: tl.entries[tl.entries.length - 1]!.id });
    assert.equal(rb.status, 403, await rb.text());
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, '.git/config'), 'utf8'), EVIL);
  });
});

test('[files] write_vcs_dirs = true opens them', async () => {
  const sb = await makeSandbox(FILES);
  await fsp.writeFile(path.join(sb.root, 'hashline.toml'), '[files]\nwrite_vcs_dirs = true\n');
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    const r = await mcp.call('fs_write', { targets: [{ path: '.git/description', text: 'mine\n' }] });
    assert.ok(!textOf(r).includes('warning'), textOf(r));
    assert.equal(await fsp.readFile(path.join(sb.root, '.git/description'), 'utf8'), 'mine\n');
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
