// Attack: the durable history keeps a file's content across processes. A server without a read
// policy records secrets/key (a read, then an overwrite); a later server of the same root with
// `--read-block secrets` is then asked for that stored content every way it could leak: a rollback
// to the secret's tag (a write: it goes through, its reply carries tags only), an edit on that tag
// (refused, nothing shown), a read (refused), and `hashline history` (listed without content,
// `--show` refused). No reply, no output carries the secret.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../src/core/text/tag.js';
import { cliArgs, connectMcp, REPO, textOf } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const SECRET = 'API_KEY=hunter2-top-secret\nDB_PASSWORD=hunter2-db\n';

let sb: Sandbox;
before(async () => {
  sb = await makeSandbox({ 'secrets/key': SECRET });
  const open = await connectMcp(['--root', sb.root]);
  try {
    const r = await open.call('fs_read', { targets: [{ path: 'secrets/key' }] });
    assert.equal((r.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash, computeTag(SECRET));
    const w = await open.call('fs_write', { targets: [{ path: 'secrets/key', text: 'placeholder\n' }] });
    assert.notEqual(w.isError, true, textOf(w));
  } finally {
    await open.close();
  }
});
after(() => sb.cleanup());

test('a later server with a read policy never shows the stored secret', async () => {
  const key = path.join(sb.root, 'secrets/key');
  const mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets']);
  try {
    const tag = computeTag(SECRET);
    const rb = await mcp.call('fs_rollback', { path: 'secrets/key', hash: tag });
    assert.notEqual(rb.isError, true, textOf(rb));
    assert.doesNotMatch(JSON.stringify(rb), /hunter2/);
    assert.equal(await fsp.readFile(key, 'utf8'), SECRET, 'restored from the store of the earlier process');
    for (const ops of ['replace 1:\n+x', 'insert head:\n+x']) {
      const e = await mcp.call('fs_edit', { targets: [{ path: 'secrets/key', file_hash: tag, ops }] });
      assert.equal(e.isError, true);
      assert.doesNotMatch(JSON.stringify(e), /hunter2/);
    }
    const read = await mcp.call('fs_read', { targets: [{ path: 'secrets/key' }] });
    assert.doesNotMatch(JSON.stringify(read), /hunter2/);
  } finally {
    await mcp.close();
  }
});

test('hashline history lists the secret\'s versions without content and refuses --show', () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [...cliArgs(), 'history', '--root', sb.root, '--read-block', 'secrets', ...args], { cwd: REPO, encoding: 'utf8' });
  const listed = cli('secrets/key', '--json');
  assert.equal(listed.status, 0, listed.stderr);
  const json = JSON.parse(listed.stdout) as { contentShown: boolean; versions: Array<{ id: number; tag: string | null }> };
  assert.equal(json.contentShown, false);
  assert.ok(json.versions.some((v) => v.tag === computeTag(SECRET)));
  for (const v of json.versions) {
    const shown = cli('secrets/key', '--show', String(v.id));
    assert.equal(shown.status, 1);
    assert.doesNotMatch(shown.stdout + shown.stderr, /hunter2/);
  }
  assert.doesNotMatch(listed.stdout + cli().stdout, /hunter2/);
});
