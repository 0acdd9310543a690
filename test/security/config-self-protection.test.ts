// The configuration is the operator's: no tool may change the file in use nor create hashline.toml
// at the root (an agent that could would turn off hash checks or widen its own guard at the next
// reload). Built over a real `hashline mcp`; the file must come out byte for byte as it went in.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('no tool changes the configuration file, in the root or named by --config', async () => {
  const sb = await makeSandbox({ 'hashline.toml': '[safety]\nrequire_hash = true\n', 'a.txt': 'a\n' });
  const outsideConfig = path.join(sb.base, 'ops.toml');
  await fsp.writeFile(outsideConfig, 'block = ["secrets"]\n');
  const linked = path.join(sb.root, 'ops-link.toml');
  await fsp.symlink(outsideConfig, linked);
  const before = await fsp.readFile(path.join(sb.root, 'hashline.toml'), 'utf8');
  for (const args of [['--root', sb.root], ['--root', sb.root, '--config', outsideConfig, '--allow', outsideConfig]]) {
    const mcp = await connectMcp(args);
    try {
      const write = await mcp.call('fs_write', { targets: [{ path: 'hashline.toml', text: '[safety]\nrequire_hash = false\n' }] });
      assert.match(textOf(write), /configuration/);
      const read = await mcp.call('fs_read', { targets: [{ path: 'hashline.toml' }] });
      const tag = /#([0-9A-F]{4})/.exec(textOf(read))![1]!;
      const edit = await mcp.call('fs_edit', { targets: [{ path: 'hashline.toml', file_hash: tag, ops: 'replace 2:\n+require_hash = false' }] });
      assert.equal(edit.isError, true);
      const viaAbs = await mcp.call('fs_write', { targets: [{ path: outsideConfig, text: 'x = 1\n' }] });
      assert.match(textOf(viaAbs), /configuration|denied/);
      const viaLink = await mcp.call('fs_write', { targets: [{ path: 'ops-link.toml', text: 'x = 1\n' }] });
      assert.match(textOf(viaLink), /configuration|denied|outside/);
    } finally {
      await mcp.close();
    }
    assert.equal(await fsp.readFile(path.join(sb.root, 'hashline.toml'), 'utf8'), before);
    assert.equal(await fsp.readFile(outsideConfig, 'utf8'), 'block = ["secrets"]\n');
  }
  await sb.cleanup();
});

test('an agent cannot create hashline.toml at the root when none exists', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    const write = await mcp.call('fs_write', { targets: [{ path: 'hashline.toml', text: 'block = []\n' }] });
    assert.match(textOf(write), /configuration/);
    const viaDots = await mcp.call('fs_write', { targets: [{ path: 'sub/../hashline.toml', text: 'block = []\n' }] });
    assert.match(textOf(viaDots), /configuration|not found|denied/);
  } finally {
    await mcp.close();
  }
  await assert.rejects(fsp.access(path.join(sb.root, 'hashline.toml')));
  await sb.cleanup();
});
