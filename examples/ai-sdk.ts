// The tools for the Vercel AI SDK (`ai` 7): `aiSdkTools(engine)` gives `tool()` definitions with the
// tools' own zod schemas, to pass to generateText / streamText. Here one is executed directly, as
// the SDK does when a model calls it. Run: npx tsx examples/ai-sdk.ts
//
//   const result = await generateText({ model, tools: aiSdkTools(engine), stopWhen: stepCountIs(10), prompt });
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine } from 'hashline';
import { aiSdkTools } from 'hashline/ai';

const root = mkdtempSync(path.join(tmpdir(), 'hashline-example-'));
writeFileSync(path.join(root, 'a.py'), 'def alpha():\n    return 1\n');
try {
  const tools = aiSdkTools(await createEngine({ root }), { tools: ['hashline'] });
  console.log(Object.keys(tools).join(', ')); // fs_read, fs_write, ...
  const reply = await tools.fs_read!.execute!({ targets: [{ path: 'a.py', symbol: 'alpha' }] }, { toolCallId: '1', messages: [], context: {} });
  console.log(reply); // { ok: true, data: { results: [...] }, text: '¶a.py#TAG\n1| def alpha():...' }
} finally {
  rmSync(root, { recursive: true, force: true });
}
