// Attack: learn what a read-blocked file holds (or that it exists) through the navigation tools.
// With --read-block on a directory and a file, and a link inside the root to the blocked file,
// no listing, search, outline or references result ever names them or shows their content.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('read-blocked files never appear in fs_list, fs_search, fs_outline or fs_references', async () => {
  const SECRET = 'export function leakMe() { return "hunter2"; }\n';
  const sb = await makeSandbox({
    'secrets/key.ts': SECRET,
    'secrets/deep/more.ts': SECRET,
    'src/private.ts': SECRET,
    'src/public.ts': 'export function ok() { return leakMe; }\n',
  });
  await fsp.symlink('../src/private.ts', path.join(sb.root, 'src/alias.ts'));
  const mcp = await connectMcp(['--root', sb.root, '--read-block', 'secrets', '--read-block', 'src/private.ts']);
  try {
    const replies = [
      await mcp.call('fs_list', { depth: 5, include_ignored: true }),
      await mcp.call('fs_list', { glob: '**/*' }),
      await mcp.call('fs_search', { pattern: 'hunter2' }),
      await mcp.call('fs_search', { pattern: 'leak', regex: true }),
      await mcp.call('fs_outline', { targets: [{ path: '.' }] }),
      await mcp.call('fs_references', { name: 'leakMe' }),
    ];
    for (const r of replies) {
      const all = `${textOf(r)}\n${JSON.stringify(r.structuredContent)}`;
      assert.ok(!all.includes('hunter2'), all);
      assert.ok(!all.includes('secrets'), all);
      assert.ok(!all.includes('private.ts'), all);
      assert.ok(!all.includes('alias.ts'), all);
    }
    // the public file is found, so the calls did search
    assert.match(textOf(replies[5]!), /src\/public\.ts/);
    assert.match(textOf(replies[0]!), /public\.ts/);
    // naming a blocked path outright is refused
    for (const [tool, args] of [
      ['fs_list', { path: 'secrets' }],
      ['fs_search', { pattern: 'x', path: 'secrets' }],
      ['fs_search', { pattern: 'x', path: 'src/alias.ts' }],
      ['fs_references', { name: 'leakMe', path: 'src/private.ts' }],
    ] as const) {
      const r = await mcp.call(tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(textOf(r), /^\[path_blocked\]/, tool);
    }
    const o = await mcp.call('fs_outline', { targets: [{ path: 'secrets/key.ts' }] });
    assert.ok(!textOf(o).includes('leakMe'));
    assert.match(textOf(o), /path is in blocklist/);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
