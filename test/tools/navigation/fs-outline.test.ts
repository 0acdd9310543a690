// fs_outline over the real MCP client: symbols with kind, name, span and nesting under the file
// tag (locals left out), a directory outlined file by file, the cap with its note, warnings for a
// file without a grammar or a missing path; the outline's tag is good for an edit.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const SERVER = [
  "import { x } from './x';", // 1
  'export class Server {', // 2
  '  private port = 80;', // 3
  '  start(): void {', // 4
  '    const local = 1;', // 5
  '  }', // 6
  '}', // 7
  'export const handler = () => 1;', // 8
  'function main() {', // 9
  '  function inner() {}', // 10
  '}', // 11
].join('\n') + '\n';

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({
    'src/server.ts': SERVER,
    'src/util.py': 'class Util:\n    size = 3\n\n    def run(self):\n        x = 1\n        return x\n\ndef helper():\n    pass\n',
    'src/notes.txt': 'no grammar here\n',
  });
  mcp = await connectMcp(['--root', sb.root]);
  // with the tools listed, the client checks every result against its tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

test('a file: kinds, names, spans and nesting under its tag; locals left out', async () => {
  const r = await mcp.call('fs_outline', { targets: [{ path: 'src/server.ts' }] });
  assert.equal(r.isError, undefined, textOf(r));
  assert.equal(textOf(r), [
    `¶src/server.ts#${computeTag(SERVER)}`,
    'class Server 2-7',
    '  field port 3',
    '  method start 4-6',
    'variable handler 8',
    'function main 9-11',
    '  function inner 10',
  ].join('\n'));
});

test('a directory: each file with a grammar, in order; a named file\'s tag is good for fs_edit', async () => {
  const r = await mcp.call('fs_outline', { targets: [{ path: 'src' }] });
  const out = r.structuredContent as { results: Array<{ path: string; file_hash: string; symbols: Array<{ kind: string; name: string; depth: number }> }> };
  assert.deepEqual(out.results.map((x) => x.path), ['src/server.ts', 'src/util.py']);
  assert.deepEqual(out.results[1]!.symbols.map((s) => `${s.depth}:${s.kind}:${s.name}`), ['0:class:Util', '1:variable:size', '1:function:run', '0:function:helper']);
  // a file named as a target is recorded, so its tag is good for an edit; the files of a walked tree are not
  const walked = await mcp.call('fs_edit', { targets: [{ path: 'src/util.py', file_hash: out.results[1]!.file_hash, ops: 'replace 9:\n+    return None' }] });
  assert.equal((walked.structuredContent as { code: string }).code, 'tag_unknown');
  const named = await mcp.call('fs_outline', { targets: [{ path: 'src/util.py' }] });
  const tag = (named.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  assert.equal(tag, out.results[1]!.file_hash);
  const e = await mcp.call('fs_edit', { targets: [{ path: 'src/util.py', file_hash: tag, ops: 'replace 9:\n+    return None' }] });
  assert.equal(e.isError, undefined, textOf(e));
});

test('the cap stops the outline with a note; warnings for no grammar and a missing path', async () => {
  const r = await mcp.call('fs_outline', { targets: [{ path: 'src' }], max_results: 3 });
  const out = r.structuredContent as { results: Array<{ symbols: unknown[] }>; capped: boolean; notes: string[] };
  assert.equal(out.capped, true);
  assert.equal(out.results.flatMap((x) => x.symbols).length, 3);
  assert.match(out.notes[0]!, /^\[Outline stopped at max_results \(3\) symbols after 1 file; 1 more file not outlined/);
  const w = await mcp.call('fs_outline', { targets: [{ path: 'src/notes.txt' }, { path: 'gone.ts' }] });
  // nothing outlined: an error for the client, as fs_read's; one good target beside them is not
  assert.equal(w.isError, true);
  assert.match(textOf(w), /^\[warning\] src\/notes\.txt: no tree-sitter grammar available/);
  assert.match(textOf(w), /\[warning\] gone\.ts: `gone\.ts` does not exist/);
  const mixed = await mcp.call('fs_outline', { targets: [{ path: 'gone.ts' }, { path: 'src/server.ts' }] });
  assert.equal(mixed.isError, undefined, textOf(mixed));
  assert.match(textOf(mixed), /^\[warning\] gone\.ts: `gone\.ts` does not exist\n\n¶src\/server\.ts#/);
});
