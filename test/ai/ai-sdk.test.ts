// The AI SDK adapter driven by the SDK itself: generateText with a scripted model that calls the
// tools; the SDK validates the input against the tool's zod schema, runs it on a real engine over a
// temp tree, and hands the model the text an MCP client's model would read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { asSchema, generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { aiSdkTools } from '../../src/ai/ai-sdk.js';
import { createEngine } from '../../src/api/create-engine.js';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

type Call = { toolName: string; input: unknown };

/** A model that makes the given tool calls, one per step, then answers "done". */
function scripted(calls: Call[]) {
  let step = 0;
  const seen: unknown[] = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      seen.push(options.prompt);
      const call = calls[step++];
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      if (!call) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      return {
        content: [{ type: 'tool-call', toolCallId: `c${step}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
  return { model, seen };
}

test('a model reads and edits through the AI SDK tools; a stale tag is refused; bad input is refused by the schema', async () => {
  const sb = await makeSandbox({ 'a.py': 'def alpha():\n    return 1\n' });
  try {
    const engine = await createEngine({ root: sb.root });
    const tools = aiSdkTools(engine, { tools: ['hashline', 'file_hash'] });
    assert.ok(tools.fs_read && tools.file_hash && !tools.file_write);

    const first = scripted([{ toolName: 'fs_read', input: { targets: [{ path: 'a.py' }] } }]);
    const r1 = await generateText({ model: first.model, tools, stopWhen: stepCountIs(3), prompt: 'read a.py' });
    const read = r1.steps[0]!.toolResults[0]!;
    const tag = /¶a\.py#([0-9A-F]{4})/.exec(JSON.stringify(read.output))![1]!;
    // the model's next prompt holds the text block, as an MCP client's model reads it
    assert.match(JSON.stringify(first.seen[1]), /"type":"text","value":"¶a\.py#[0-9A-F]{4}\\n1\| def alpha\(\):/);

    const second = scripted([
      { toolName: 'fs_edit', input: { targets: [{ path: 'a.py', file_hash: tag, ops: 'replace 2:\n+    return 2' }] } },
      { toolName: 'fs_edit', input: { targets: [{ path: 'a.py', file_hash: tag, ops: 'replace 2:\n+    return 3' }] } },
      { toolName: 'file_hash', input: { filePaths: ['a.py'], bogus: true } },
    ]);
    const r2 = await generateText({ model: second.model, tools, stopWhen: stepCountIs(5), prompt: 'edit a.py' });
    const outputs = r2.steps.flatMap((s) => [...s.toolResults.map((t) => t.output), ...s.content.filter((c) => c.type === 'tool-error').map((c) => c)]);
    assert.equal((outputs[0] as { ok: boolean }).ok, true);
    assert.equal((outputs[1] as { ok: boolean; error: { code: string } }).error.code, 'edit_rejected');
    assert.equal(readFileSync(path.join(sb.root, 'a.py'), 'utf8'), 'def alpha():\n    return 2\n');
    // an unknown key is refused by the tool's strict schema before anything runs
    assert.match(JSON.stringify(outputs[2]), /bogus|Unrecognized|invalid/i);
  } finally {
    await sb.cleanup();
  }
});

test('the model is shown the description and the compact input schema tools/list sends', async () => {
  const sb = await makeSandbox({});
  try {
    const tools = aiSdkTools(await createEngine({ root: sb.root }));
    for (const def of ALL_TOOLS) {
      const t = tools[def.name]!;
      assert.equal(t.description, def.description);
      assert.deepEqual(await asSchema(t.inputSchema).jsonSchema, toolListing(def).inputSchema, def.name);
    }
  } finally {
    await sb.cleanup();
  }
});
