// Whole reads of the same file over MCP stdio (the official SDK client against a spawned server):
// the reply of a repeated read (the lines kept by io/read/whole-read-cache.ts, the long text's bytes
// kept by the stdio encoder) is exactly the first one, and a change of the bytes (the same size,
// the same mtime) shows at once, in the text block and in structuredContent alike.

import assert from 'node:assert/strict';
import { promises as fsp, utimesSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../src/core/text/tag.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const v1 = Array.from({ length: 400 }, (_, i) => `export const v${i} = "${i}";\t// é`).join('\n') + '\n';
let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox({ 'big.ts': v1 });
  mcp = await connectMcp(['--root', sb.root]);
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

const expected = (text: string) => `¶big.ts#${computeTag(text)}\n${text.split('\n').map((l, i) => `${i + 1}| ${l}`).join('\n')}`;
const contentOf = (r: Awaited<ReturnType<McpSession['call']>>) => (r.structuredContent as { results: Array<{ content: string }> }).results[0]!.content;

test('a repeated whole read replies the same; changed bytes show at once', async () => {
  const file = path.join(sb.root, 'big.ts');
  utimesSync(file, 1_000_000, 1_000_000);
  const first = await mcp.call('fs_read', { targets: [{ path: 'big.ts' }] });
  assert.equal(textOf(first), expected(v1));
  assert.equal(contentOf(first), expected(v1));
  const again = await mcp.call('fs_read', { targets: [{ path: 'big.ts' }] });
  assert.deepEqual(again, first);

  const v2 = v1.replace('v123 = "123"', 'v123 = "321"');
  await fsp.writeFile(file, v2);
  utimesSync(file, 1_000_000, 1_000_000);
  const changed = await mcp.call('fs_read', { targets: [{ path: 'big.ts' }] });
  assert.equal(textOf(changed), expected(v2));
  assert.equal(contentOf(changed), expected(v2));
  assert.doesNotMatch(mcp.stderr(), /error/i);
});
