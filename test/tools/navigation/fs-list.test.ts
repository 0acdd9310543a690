// fs_list over the real MCP client: the compact tree (sizes, line counts, depth limit), .gitignore
// and the default ignores, include_ignored, links shown and never followed, glob, and the cap with
// its note naming where to continue.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

interface Entry { path: string; type: string; size?: number; lines?: number; entries?: number; target?: string; target_type?: string }
interface ListOut { entries: Entry[]; total: number; capped: boolean; notes?: string[] }

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({
    'README.md': '# title\ntext\n',
    'src/app.ts': 'a\nb\nc\n',
    'src/lib/util.ts': 'x\n',
    'src/lib/deep/more.ts': 'y\n',
    '.gitignore': 'build/\n*.tmp\n',
    'build/out.js': 'z\n',
    'scratch.tmp': 'z\n',
    'node_modules/pkg/index.js': 'z\n',
    '.git/HEAD': 'ref\n',
    'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
  });
  await fsp.symlink(sb.outside, path.join(sb.root, 'escape'));
  await fsp.symlink('src/app.ts', path.join(sb.root, 'app-link.ts'));
  mcp = await connectMcp(['--root', sb.root]);
  // with the tools listed, the client checks every result against its tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

async function list(args: Record<string, unknown>): Promise<{ text: string; out: ListOut }> {
  const r = await mcp.call('fs_list', args);
  assert.equal(r.isError, undefined, textOf(r));
  return { text: textOf(r), out: r.structuredContent as unknown as ListOut };
}

test('a two-level tree: sizes and line counts, ignored and default-skipped entries hidden, links not followed', async () => {
  const { text } = await list({});
  assert.equal(text, [
    './',
    '  .gitignore  13 B, 2 lines',
    '  README.md  13 B, 2 lines',
    '  app-link.ts -> src/app.ts',
    '  escape -> (outside the root; not followed)',
    '  img.png  7 B, binary',
    '  src/',
    '    app.ts  6 B, 3 lines',
    '    lib/  (2 entries; list it to see them)',
  ].join('\n'));
  assert.ok(!text.includes(sb.outside), 'the outside target is never printed');
  assert.ok(!text.includes('secret.txt'));
});

test('include_ignored shows what .gitignore hides, never .git or node_modules; depth reaches further', async () => {
  const paths = (await list({ include_ignored: true, depth: 1 })).out.entries.map((e) => e.path);
  assert.ok(paths.includes('build') && paths.includes('scratch.tmp'));
  assert.ok(!paths.includes('.git') && !paths.includes('node_modules'));
  const deep = (await list({ path: 'src', depth: 5 })).out.entries.map((e) => e.path);
  assert.deepEqual(deep, ['src/app.ts', 'src/lib', 'src/lib/deep', 'src/lib/deep/more.ts', 'src/lib/util.ts']);
});

test('glob keeps matching files and the directories leading to them', async () => {
  const { text } = await list({ glob: '*.ts' });
  assert.equal(text, ['./', '  app-link.ts -> src/app.ts', '  src/', '    app.ts  6 B, 3 lines', '    lib/', '      deep/', '        more.ts  2 B, 1 line', '      util.ts  2 B, 1 line'].join('\n'));
});

test('the cap: a note with the count left and a deeper path to list', async () => {
  const { out, text } = await list({ path: 'src', depth: 5, max_entries: 2 });
  assert.equal(out.capped, true);
  assert.equal(out.total, 5);
  assert.deepEqual(out.entries.map((e) => e.path), ['src/app.ts', 'src/lib']);
  assert.match(text, /\[Listing stopped at max_entries \(2\); 3 more entries not shown: list a deeper `path` \(e\.g\. "src\/lib"\) or narrow `glob`\]$/);
});

test('errors: a missing path, a path outside, a link out of the root', async () => {
  assert.match(textOf(await mcp.call('fs_list', { path: 'nope' })), /^\[not_found\]/);
  assert.match(textOf(await mcp.call('fs_list', { path: '../outside' })), /^\[path_outside_root\]/);
  assert.match(textOf(await mcp.call('fs_list', { path: 'escape' })), /^\[symlink_escape\]/);
});

test('a directory that .gitignore excludes, named explicitly, is listed and searched', async () => {
  const { out } = await list({ path: 'build' });
  assert.deepEqual(out.entries.map((e) => e.path), ['build/out.js']);
  const s = await mcp.call('fs_search', { pattern: 'z', path: 'build' });
  assert.deepEqual((s.structuredContent as { results: Array<{ path: string }> }).results.map((r) => r.path), ['build/out.js']);
});
