// The last guard on the replies of tools that change files: a reply over the limit is shrunk in
// steps (diffs, then long strings, then long lists), keeps the new headers, and fits; a reply that
// fits is left alone, and a read-only tool's reply is never touched.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CUT_NOTE, DIFF_DROPPED, REPLY_LIMIT, fitReply, replyBytes } from '../../src/mcp/reply-fit.js';
import { runTool } from '../../src/mcp/server.js';
import { defineTool } from '../../src/tools/tool.js';
import { callContext, engineFor } from '../helpers/engine.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

function editReply(results: Array<{ path: string; diff?: string; warnings?: string[] }>, extraText = ''): CallToolResult {
  const full = results.map((r) => ({ path: r.path, file_hash: 'ABCD', header: `¶${r.path}#ABCD`, warnings: r.warnings ?? [], ...(r.diff === undefined ? {} : { diff: r.diff }) }));
  const text = full.map((r) => [r.header, ...r.warnings, ...(r.diff === undefined ? [] : [r.diff.replace(/\n$/, '')])].join('\n')).join('\n\n') + extraText;
  return { content: [{ type: 'text', text }], structuredContent: { results: full } };
}

const diffOf = (lines: number) => `--- a\n+++ a\n@@ -1,${lines} +0,0 @@\n${'-some removed line\n'.repeat(lines)}`;

test('a reply that fits is returned as it is', () => {
  const r = editReply([{ path: 'a.txt', diff: diffOf(3) }]);
  assert.equal(fitReply(r, 10_000), r);
});

test('step 1: diffs are dropped from the text and the structure, with a note; headers stay', () => {
  const r = editReply([{ path: 'a.txt', diff: diffOf(2000) }, { path: 'b.txt', diff: diffOf(10) }]);
  const out = fitReply(r, 10_000);
  assert.ok(replyBytes(out) <= 10_000);
  const results = (out.structuredContent as { results: Array<{ header: string; diff?: string; warnings: string[] }> }).results;
  assert.deepEqual(results.map((x) => [x.header, x.diff, x.warnings]), [
    ['¶a.txt#ABCD', undefined, [DIFF_DROPPED]],
    ['¶b.txt#ABCD', undefined, [DIFF_DROPPED]],
  ]);
  const text = (out.content[0] as { text: string }).text;
  assert.equal(text, `¶a.txt#ABCD\n${DIFF_DROPPED}\n\n¶b.txt#ABCD\n${DIFF_DROPPED}`);
  // the input is left as it was
  assert.ok((r.structuredContent as { results: Array<{ diff?: string }> }).results[0]!.diff);
});

test('step 2: long strings are cut, the text to a prefix', () => {
  const cause = 'context line\n'.repeat(5000);
  const r: CallToolResult = {
    isError: true,
    content: [{ type: 'text', text: `edit failed: ${cause}\nApplied before the failure:\n¶a.txt#ABCD` }],
    structuredContent: { failed_path: 'b.txt', cause, code: 'edit_rejected', applied: [{ path: 'a.txt', file_hash: 'ABCD', header: '¶a.txt#ABCD', warnings: [] }], skipped: [] },
  };
  const out = fitReply(r, 80_000);
  assert.ok(replyBytes(out) <= 80_000);
  assert.equal(out.isError, true);
  const s = out.structuredContent as { cause: string; applied: Array<{ header: string }> };
  assert.ok(s.cause.endsWith(CUT_NOTE) && s.cause.length < cause.length);
  assert.equal(s.applied[0]!.header, '¶a.txt#ABCD');
});

test('step 3: a long list is halved until the reply fits, and the text says how many entries were left out', () => {
  const r = editReply(Array.from({ length: 4000 }, (_, i) => ({ path: `src/file-${i}.ts` })));
  const out = fitReply(r, 50_000);
  assert.ok(replyBytes(out) <= 50_000);
  const results = (out.structuredContent as { results: Array<{ header: string }> }).results;
  assert.ok(results.length > 0 && results.length < 4000);
  assert.equal(results[0]!.header, '¶src/file-0.ts#ABCD');
  assert.match((out.content[0] as { text: string }).text, new RegExp(`\\(${4000 - results.length} list entries left out`));
});

test('runTool fits the reply of a tool that changes files, and leaves a read-only tool\'s reply to the transport', async () => {
  const sb = await makeSandbox();
  try {
    const engine = await engineFor(sb.root);
    const big = 'x'.repeat(REPLY_LIMIT);
    const make = (readOnlyHint: boolean) =>
      defineTool({
        name: readOnlyHint ? 'reads' : 'changes',
        family: 'hashline',
        title: 't',
        description: 't',
        input: z.strictObject({}),
        output: z.object({ results: z.array(z.object({ header: z.string(), warnings: z.array(z.string()), diff: z.string() })) }),
        annotations: { readOnlyHint, destructiveHint: !readOnlyHint, idempotentHint: false, openWorldHint: false },
        run: async () => ({ structured: { results: [{ header: '¶a#ABCD', warnings: [], diff: big }] }, text: `¶a#ABCD\n${big}` }),
      });
    const changed = await runTool(engine, make(false), {}, callContext());
    assert.ok(replyBytes(changed) <= REPLY_LIMIT);
    assert.equal((changed.content[0] as { text: string }).text, `¶a#ABCD\n${DIFF_DROPPED}`);
    const read = await runTool(engine, make(true), {}, callContext());
    assert.ok(replyBytes(read) > REPLY_LIMIT);
  } finally {
    await sb.cleanup();
  }
});
