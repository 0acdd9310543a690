// The tools as Vercel AI SDK tools (`import { aiSdkTools } from 'hashline/ai'`), for harnesses that
// call a model through the AI SDK rather than over MCP. Each is a `tool()` with the tool's
// description and the input schema tools/list sends (validated by the tool's own zod schema); it runs through callTool on the engine, and the model reads what an
// MCP client's model would: the text block of the hashline family, the envelope JSON of the
// boundary family. `ai` is an optional peer dependency (major 7; 6 works too).

import { jsonSchema, tool, type Tool } from 'ai';
import { callTool, type ToolReply } from '../api/call-tool.js';
import type { Engine } from '../tools/engine.js';
import { selectTools } from '../tools/registry.js';
import { listedInputSchema } from '../tools/schema-compact.js';
import type { ToolDefinition } from '../tools/tool.js';

export interface AiSdkToolsOptions {
  /** Tool names and/or the profiles `hashline`, `navigation`, `boundary`, `all` (default: all tools). */
  tools?: readonly string[];
}

/** What the model reads of a reply: the hashline text block, or the boundary family's envelope. */
export function modelText(def: ToolDefinition, reply: ToolReply<unknown>): string {
  if (def.family === 'boundary') return JSON.stringify(reply.ok ? { ok: true, data: reply.data } : { ok: false, error: reply.error });
  return reply.text;
}

/** The selected tools, keyed by name, ready for `generateText({ tools })` / `streamText({ tools })`. */
export function aiSdkTools(engine: Engine, options: AiSdkToolsOptions = {}): Record<string, Tool> {
  const out: Record<string, Tool> = {};
  for (const def of selectTools(options.tools)) {
    out[def.name] = tool({
      description: def.description,
      // the model is shown the compact schema tools/list sends; the tool's strict zod schema validates
      inputSchema: jsonSchema(listedInputSchema(def.input), {
        validate: (value) => {
          const r = def.input.safeParse(value);
          return r.success ? { success: true, value: r.data } : { success: false, error: r.error };
        },
      }),
      execute: (input: unknown, { abortSignal }) => callTool(engine, def, input, abortSignal === undefined ? {} : { signal: abortSignal }),
      toModelOutput: ({ output }) => ({ type: 'text', value: modelText(def, output as ToolReply<unknown>) }),
    }) as Tool;
  }
  return out;
}
