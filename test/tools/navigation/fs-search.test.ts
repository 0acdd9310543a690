// fs_search end to end over the official SDK client and a spawned `hashline mcp`: hits come back as
// fs_read windows and are edited directly (fresh tag applies; a change elsewhere merges; a change on
// the hit lines is refused with context), caps and continuation notes, smart case, regex errors with
// their position, binary files skipped, long lines cut, .gitignore honoured.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

interface Hit { path: string; file_hash: string; header: string; content: string; hit_lines: number[] }
interface SearchOut { results: Hit[]; total_matches: number; total_files: number; files_searched: number; capped: boolean; notes: string[] }

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

const CONFIG = lines(30, (i) => (i === 10 ? 'const port = parseConfig(env);' : i === 20 ? 'const host = parseConfig(defaults);' : `// line ${i}`));

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({
    'src/config.ts': CONFIG,
    'src/other.ts': 'export function parseConfig(x: string) {\n  return x;\n}\n',
    'src/Notes.md': 'ParseConfig is the old name\nparseconfig in lower case\n',
    '.gitignore': 'dist/\n*.log\n',
    'dist/bundle.js': 'parseConfig(1)\n',
    'debug.log': 'parseConfig(2)\n',
    'node_modules/m/index.js': 'parseConfig(3)\n',
    'blob.bin': Buffer.from([0x70, 0x61, 0x72, 0x73, 0x65, 0x00, 0x01, ...Buffer.from('parseConfig')]),
    'wide.txt': `${'x'.repeat(300)} needle ${'y'.repeat(300)}\n`,
    'many.txt': lines(40, (i) => `item ${i} TODO`),
  });
  mcp = await connectMcp(['--root', sb.root]);
  // with the tools listed, the client checks every result against its tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

async function search(args: Record<string, unknown>): Promise<{ r: CallToolResult; out: SearchOut }> {
  const r = await mcp.call('fs_search', args);
  assert.equal(r.isError, undefined, textOf(r));
  return { r, out: r.structuredContent as unknown as SearchOut };
}

test('hits are tagged fs_read windows with context; ignored, node_modules and binary files are not searched', async () => {
  const { r, out } = await search({ pattern: 'parseConfig(', path: 'src', context: 1 });
  const tag = computeTag(CONFIG);
  const config = out.results.find((x) => x.path === 'src/config.ts')!;
  assert.equal(config.content, `¶src/config.ts#${tag}\n9| // line 9\n10| const port = parseConfig(env);\n11| // line 11\n[…7 lines between ranges elided]\n19| // line 19\n20| const host = parseConfig(defaults);\n21| // line 21`);
  assert.deepEqual(config.hit_lines, [10, 20]);
  assert.deepEqual(out.results.map((x) => x.path), ['src/config.ts', 'src/other.ts']);
  assert.equal(out.total_matches, 3);
  assert.ok(textOf(r).startsWith(config.content));
  assert.match(textOf(r), /\[3 matching lines in 2 files; 3 files searched\]$/);

  const all = (await search({ pattern: 'parseConfig' })).out;
  const paths = all.results.map((x) => x.path);
  for (const hidden of ['dist/bundle.js', 'debug.log', 'node_modules/m/index.js', 'blob.bin']) assert.ok(!paths.includes(hidden), hidden);
  assert.ok(all.notes.includes('[1 binary file skipped]'));
});

test('smart case: lower-case patterns ignore case, an upper-case letter makes it sensitive; case_sensitive overrides', async () => {
  const lower = (await search({ pattern: 'parseconfig', path: 'src/Notes.md' })).out;
  assert.deepEqual(lower.results[0]!.hit_lines, [1, 2]);
  const upper = (await search({ pattern: 'ParseConfig', path: 'src/Notes.md' })).out;
  assert.deepEqual(upper.results[0]!.hit_lines, [1]);
  const forced = (await search({ pattern: 'parseconfig', path: 'src/Notes.md', case_sensitive: true })).out;
  assert.deepEqual(forced.results[0]!.hit_lines, [2]);
  const regex = (await search({ pattern: '^\\S+config\\b', regex: true, path: 'src' })).out;
  assert.deepEqual(regex.results.map((x) => [x.path, x.hit_lines]), [['src/Notes.md', [1, 2]]], '\\S does not make the pattern case-sensitive');
});

test('an edit from a search hit: the fresh tag applies directly', async () => {
  await fsp.writeFile(path.join(sb.root, 'edit1.ts'), CONFIG);
  const hit = (await search({ pattern: 'parseConfig(env)', path: 'edit1.ts', context: 0 })).out.results[0]!;
  assert.equal(hit.content, `¶edit1.ts#${computeTag(CONFIG)}\n10| const port = parseConfig(env);`);
  const e = await mcp.call('fs_edit', { targets: [{ path: 'edit1.ts', file_hash: hit.file_hash, ops: 'replace 10:\n+const port = parseConfig(process.env);' }] });
  assert.equal(e.isError, undefined, textOf(e));
  const res = (e.structuredContent as { results: Array<{ warnings: string[] }> }).results[0]!;
  assert.deepEqual(res.warnings, [], 'direct: no merge, no unseen-line warning');
  assert.equal((await fsp.readFile(path.join(sb.root, 'edit1.ts'), 'utf8')).split('\n')[9], 'const port = parseConfig(process.env);');
});

test('an edit from a search hit after the file changed elsewhere is merged', async () => {
  const file = path.join(sb.root, 'edit2.ts');
  await fsp.writeFile(file, CONFIG);
  const hit = (await search({ pattern: 'parseConfig(defaults)', path: 'edit2.ts' })).out.results[0]!;
  await fsp.writeFile(file, `// a header someone added\n${CONFIG}`);
  const e = await mcp.call('fs_edit', { targets: [{ path: 'edit2.ts', file_hash: hit.file_hash, ops: 'replace 20:\n+const host = parseConfig(overrides);' }] });
  assert.equal(e.isError, undefined, textOf(e));
  assert.match(textOf(e), /Recovered from a stale file hash/);
  const after = (await fsp.readFile(file, 'utf8')).split('\n');
  assert.equal(after[0], '// a header someone added');
  assert.equal(after[20], 'const host = parseConfig(overrides);', 'landed on the moved line');
});

test('an edit from a search hit whose line changed since is refused with context, nothing written', async () => {
  const file = path.join(sb.root, 'edit3.ts');
  await fsp.writeFile(file, CONFIG);
  const hit = (await search({ pattern: 'parseConfig(env)', path: 'edit3.ts' })).out.results[0]!;
  const changed = CONFIG.replace('parseConfig(env)', 'parseConfig(theirEnv)');
  await fsp.writeFile(file, changed);
  const e = await mcp.call('fs_edit', { targets: [{ path: 'edit3.ts', file_hash: hit.file_hash, ops: 'replace 10:\n+const port = parseConfig(mine);' }] });
  assert.equal(e.isError, true);
  assert.equal((e.structuredContent as { code: string }).code, 'edit_rejected');
  assert.match(textOf(e), /Edit rejected: file changed between read and edit/);
  assert.match(textOf(e), /10\| const port = parseConfig\(theirEnv\);/, 'the context shows the current line');
  assert.equal(await fsp.readFile(file, 'utf8'), changed);
});

test('max_results caps the hits, counts the rest and says how to continue', async () => {
  const { r, out } = await search({ pattern: 'TODO', path: 'many.txt', max_results: 5, context: 0 });
  assert.equal(out.capped, true);
  assert.deepEqual(out.results[0]!.hit_lines, [1, 2, 3, 4, 5]);
  assert.equal(out.total_matches, 40);
  assert.match(out.results[0]!.content, /\[More matches in `many.txt` from line 6; read on with fs_read line_range "6-40"\]$/);
  assert.match(textOf(r), /\[Stopped at max_results \(5\); 40 matching lines in 1 file in all\. Narrow `path` or `glob`, or raise `max_results` to see the rest\]$/);

  // over a tree: files past the cap are counted, not shown
  const tree = (await search({ pattern: 'parseConfig', path: 'src', max_results: 1, context: 0 })).out;
  assert.equal(tree.results.length, 1);
  assert.equal(tree.total_matches, 3);
  assert.equal(tree.total_files, 2);
});

test('long lines are cut at 200 columns as fs_read does; glob filters by name or path', async () => {
  const wide = (await search({ pattern: 'needle', path: 'wide.txt', context: 0 })).out.results[0]!;
  const body = wide.content.split('\n')[1]!;
  assert.equal(body, `1| ${'x'.repeat(197)}...`);
  assert.match(wide.content, /truncated to 200 columns/);

  const g = (await search({ pattern: 'config', glob: '*.md' })).out;
  assert.deepEqual(g.results.map((x) => x.path), ['src/Notes.md']);
  const g2 = (await search({ pattern: 'parseConfig', glob: 'src/other.*' })).out;
  assert.deepEqual(g2.results.map((x) => x.path), ['src/other.ts']);
});

test('a bad regex is a coded error with the position; an empty pattern and a bad glob are refused', async () => {
  const r = await mcp.call('fs_search', { pattern: 'foo(bar', regex: true });
  assert.equal(r.isError, true);
  const err = (r.structuredContent as { error: { code: string; details: { position: number; reason: string } } }).error;
  assert.equal(err.code, 'invalid_arguments');
  assert.equal(err.details.position, 7);
  assert.equal(err.details.reason, 'Unterminated group');
  assert.match(textOf(r), /invalid regular expression at position 7: Unterminated group\n {2}foo\(bar\n {9}\^/);
  const q = await mcp.call('fs_search', { pattern: 'a**', regex: true });
  assert.equal((q.structuredContent as { error: { details: { position: number } } }).error.details.position, 3);
  // the same text is fine as a literal
  const lit = await mcp.call('fs_search', { pattern: 'foo(bar' });
  assert.equal(lit.isError, undefined);
  const empty = await mcp.call('fs_search', { pattern: '' });
  assert.equal(empty.isError, true);
  assert.match(textOf(empty), /^\[invalid_arguments\] `pattern` is empty/);
  const glob = await mcp.call('fs_search', { pattern: 'x', glob: '' });
  assert.match(textOf(glob), /^\[invalid_arguments\] the glob/);
  const missing = await mcp.call('fs_search', { pattern: 'x', path: 'nope' });
  assert.match(textOf(missing), /^\[not_found\]/);
});

test('hits from more files than the session history keeps are counted, not shown, so every tag shown is editable', async () => {
  const dir = path.join(sb.root, 'many-files');
  await fsp.mkdir(dir);
  for (let i = 0; i < 60; i++) await fsp.writeFile(path.join(dir, `f${String(i).padStart(2, '0')}.txt`), `zebra ${i}\n`);
  const { r, out } = await search({ pattern: 'zebra', path: 'many-files', context: 0 });
  assert.equal(out.results.length, 50);
  assert.equal(out.total_files, 60);
  assert.equal(out.capped, true);
  assert.match(textOf(r), /\[Hits shown from the first 50 files only \(the session history keeps 50 files, so every tag shown stays editable\)/);
  const first = out.results[0]!;
  const e = await mcp.call('fs_edit', { targets: [{ path: first.path, file_hash: first.file_hash, ops: 'replace 1:\n+zebra edited' }] });
  assert.equal(e.isError, undefined, textOf(e));
});
