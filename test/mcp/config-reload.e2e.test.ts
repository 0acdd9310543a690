// The configuration file as an operator meets it: a bad file stops the start with its line; an
// edit while the server runs applies from the next call (its guard lists included).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cliArgs, connectMcp, REPO, textOf } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('a bad configuration stops the start with the file, the line and the reason (exit 2)', async () => {
  const sb = await makeSandbox({ 'hashline.toml': '[safety]\nrequire_hash = true\nbogus = 1\n' });
  try {
    const r = spawnSync(process.execPath, [...cliArgs(), 'mcp', '--root', sb.root], { cwd: REPO, encoding: 'utf8', input: '' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /config_invalid.*hashline\.toml` line 3: unknown key `safety\.bogus`/);
    const env = { ...process.env, HASHLINE_CONFIG: path.join(sb.root, 'missing.toml') };
    const r2 = spawnSync(process.execPath, [...cliArgs(), 'mcp', '--root', sb.root], { cwd: REPO, encoding: 'utf8', input: '', env });
    assert.equal(r2.status, 2);
    assert.match(r2.stderr, /missing\.toml` does not exist/);
  } finally {
    await sb.cleanup();
  }
});

test('an edit of the file while the server runs applies from the next call; an invalid edit keeps the last good one', async () => {
  const sb = await makeSandbox({ 'secret.txt': 'TOKEN=1\n', 'a.txt': 'a\n' });
  const config = path.join(sb.base, 'ops.toml');
  await fsp.writeFile(config, '# no lists yet\n');
  const mcp = await connectMcp(['--root', sb.root, '--config', config]);
  try {
    assert.match(textOf(await mcp.call('fs_read', { targets: [{ path: 'secret.txt' }] })), /TOKEN=1/);
    await fsp.writeFile(config, 'block = ["secret.txt"]\n');
    const refused = await mcp.call('fs_read', { targets: [{ path: 'secret.txt' }] });
    assert.doesNotMatch(textOf(refused), /TOKEN=1/);
    assert.match(textOf(refused), /blocklist/);
    await fsp.writeFile(config, 'block = ["secret.txt"\n');
    const still = await mcp.call('fs_read', { targets: [{ path: 'secret.txt' }] });
    assert.doesNotMatch(textOf(still), /TOKEN=1/, 'a broken edit does not drop the block list');
    assert.match(textOf(await mcp.call('fs_read', { targets: [{ path: 'a.txt' }] })), /1\| a/);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
