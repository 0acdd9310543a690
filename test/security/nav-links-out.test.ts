// Attack: reach files outside the root through links inside it, with the navigation tools. A link
// to an outside directory and one to an outside file are shown by fs_list (as leading outside,
// target not printed) and never followed by fs_list, fs_search, fs_outline or fs_references.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree } from '../helpers/tmp-tree.js';

test('links out of the root are listed as such and never followed', async () => {
  const sb = await makeSandbox({ 'in.ts': 'export const inside = 1;\n' });
  await fsp.writeFile(path.join(sb.outside, 'outer.ts'), 'export function outerSecret() { return "TOP SECRET"; }\n');
  await fsp.symlink(sb.outside, path.join(sb.root, 'outdir'));
  await fsp.symlink(path.join(sb.outside, 'outer.ts'), path.join(sb.root, 'outfile.ts'));
  const before = await snapshotTree(sb.outside);
  const mcp = await connectMcp(['--root', sb.root]);
  try {
    const list = await mcp.call('fs_list', { depth: 4 });
    assert.equal(textOf(list), ['./', '  in.ts  25 B, 1 line', '  outdir -> (outside the root; not followed)', '  outfile.ts -> (outside the root; not followed)'].join('\n'));
    const replies = [
      list,
      await mcp.call('fs_list', { glob: '**/*.ts', depth: 4 }),
      await mcp.call('fs_search', { pattern: 'SECRET' }),
      await mcp.call('fs_search', { pattern: 'outer', glob: '**/*' }),
      await mcp.call('fs_outline', { targets: [{ path: '.' }] }),
      await mcp.call('fs_references', { name: 'outerSecret' }),
    ];
    for (const r of replies) {
      const all = `${textOf(r)}\n${JSON.stringify(r.structuredContent)}`;
      assert.ok(!all.includes('TOP SECRET') && !all.includes('outerSecret()') && !all.includes('outer.ts'), all);
      assert.ok(!all.includes(sb.outside), 'no outside path is printed');
    }
    assert.match(textOf(replies[2]!), /\[0 matching lines in 0 files; 1 file searched\]/);
    for (const [tool, args] of [
      ['fs_list', { path: 'outdir' }],
      ['fs_search', { pattern: 'x', path: 'outdir' }],
      ['fs_search', { pattern: 'x', path: 'outfile.ts' }],
      ['fs_references', { name: 'outerSecret', path: 'outdir' }],
    ] as const) {
      const r = await mcp.call(tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(textOf(r), /^\[symlink_escape\]/, tool);
    }
    assert.deepEqual(await snapshotTree(sb.outside), before);
  } finally {
    await mcp.close();
    await sb.cleanup();
  }
});
