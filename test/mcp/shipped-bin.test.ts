// The bin that package.json ships (bundled by `prepare`) serves MCP like the sources do, and a start of
// `hashline mcp` loads no tool's module (each loads on its first call: src/tools/tool-loaders.ts) and
// few files (the code it runs is kept in one chunk: scripts/bundle-cli.mjs).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('the shipped bin answers tools/list and runs a read with a grammar', async () => {
  const bin = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: { hashline: string } }).bin.hashline;
  const abs = path.join(REPO, bin);
  assert.ok(existsSync(abs), `${bin} is missing: run \`npm run build\` (npm install runs it through prepare)`);
  const sb = await makeSandbox({ 'm.py': 'def alpha():\n    return 1\n' });
  const client = new Client({ name: 'bin-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [abs, 'mcp', '--root', sb.root], stderr: 'ignore' }));
  try {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    for (const n of ['file_hash', 'fs_ast_edit', 'fs_edit', 'fs_read', 'fs_rollback', 'fs_write']) assert.ok(names.includes(n), n);
    const r = await client.callTool({ name: 'fs_read', arguments: { targets: [{ path: 'm.py', symbol: 'alpha' }] } });
    const c = r.content as Array<{ type: string; text: string }>;
    assert.match(c[0]!.text, /¶m\.py#[0-9A-F]{4}\n1\| def alpha\(\):\n2\|     return 1/);
  } finally {
    await client.close();
    await sb.cleanup();
  }
});

/** The bin's files a start of `hashline mcp` imports: the entry and the mcp command's chunk, with their static imports. */
function mcpStartFiles(dir: string): Set<string> {
  const seen = new Set<string>();
  const walk = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(/(?:from|import)\s*["']\.\/([^"']+\.mjs)["']/g)) walk(m[1]!);
  };
  walk('hashline.mjs');
  const mcp = /import\("\.\/(hashline-mcp-command-[^"]+\.mjs)"\)/.exec(readFileSync(path.join(dir, 'hashline.mjs'), 'utf8'));
  assert.ok(mcp, 'the entry imports the mcp command on use');
  walk(mcp[1]!);
  return seen;
}

test('a start of `hashline mcp` from the bin loads no tool module nor what only tools use (yaml, regexpp, re2js, diff-match-patch)', () => {
  const dir = path.join(REPO, 'bin');
  assert.ok(existsSync(path.join(dir, 'hashline.mjs')), 'bin/hashline.mjs is missing: run `npm run build`');
  const start = mcpStartFiles(dir);
  const all = readdirSync(dir).filter((f) => f.endsWith('.mjs'));
  // text found only in those libraries' code
  const markers = ['Implicit keys of flow sequence pairs need to be on a single line', 'Lone quantifier brackets', 'invalid or unsupported Perl syntax', 'diff_match_patch'];
  for (const m of markers) {
    const holders = all.filter((f) => readFileSync(path.join(dir, f), 'utf8').includes(m));
    assert.ok(holders.length > 0, `the bin holds ${m} somewhere`);
    assert.deepEqual(holders.filter((f) => start.has(f)), [], `${m} is not loaded at start`);
  }
});

test('a start of `hashline mcp` from the bin loads 5 files: the Node.js version check, the entry, the mcp command and two shared chunks', () => {
  const dir = path.join(REPO, 'bin');
  assert.ok(existsSync(path.join(dir, 'hashline.mjs')), 'bin/hashline.mjs is missing: run `npm run build`');
  const start = mcpStartFiles(dir);
  // each ES module file a start loads costs a resolve, a read and a compile (27 files before the chunks were merged)
  assert.ok(start.has('hashline-node-check.mjs'), 'the entry imports the Node.js version check');
  assert.ok(start.size <= 5, `a start loads ${start.size} files: ${[...start].join(', ')}`);
  // the tools stay out of it: their chunks are more than the start's
  assert.ok(readdirSync(dir).filter((f) => f.endsWith('.mjs')).length > start.size + 10);
});
