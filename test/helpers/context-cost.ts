// What a tool list costs an agent before its first call, measured as a host sees it: the official
// SDK client lists the tools of a spawned server. The model-visible part is each tool's name,
// description and input schema as JSON (what hosts put into the model's context on every turn) plus
// the server's instructions; the whole `tools/list` result (titles, annotations, output schemas
// included) is what crosses the wire. Tokens are o200k (gpt-tokenizer).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

export interface ContextCost {
  readonly tools: number;
  /** Bytes of name + description + inputSchema as JSON, summed over the tools. */
  readonly definitions: number;
  readonly instructions: number;
  /** definitions + instructions. */
  readonly modelVisible: number;
  /** o200k tokens of the same. */
  readonly modelVisibleTokens: number;
  /** Bytes of the whole tools/list result as JSON. */
  readonly wholeList: number;
}

export interface ListedTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
}

/** The JSON a host puts into the model's context for one tool. */
export function definitionJson(t: ListedTool): string {
  return JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
}

/** The cost of a listing and its instructions. */
export function costOf(list: { tools: readonly ListedTool[] }, instructions: string): ContextCost {
  const defs = list.tools.map(definitionJson);
  const definitions = defs.reduce((s, d) => s + Buffer.byteLength(d), 0);
  const ins = Buffer.byteLength(instructions);
  return {
    tools: list.tools.length,
    definitions,
    instructions: ins,
    modelVisible: definitions + ins,
    modelVisibleTokens: defs.reduce((s, d) => s + countTokens(d), 0) + (instructions === '' ? 0 : countTokens(instructions)),
    wholeList: Buffer.byteLength(JSON.stringify(list)),
  };
}

/** Spawns `command args`, lists its tools with the SDK client and measures them. */
export async function measureServer(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<{ cost: ContextCost; tools: ListedTool[] }> {
  const client = new Client({ name: 'hashline-context-cost', version: '0.0.0' });
  const transport = new StdioClientTransport({ command, args: [...args], stderr: 'ignore', ...(options.cwd ? { cwd: options.cwd } : {}) });
  await client.connect(transport);
  try {
    const list = await client.listTools();
    return { cost: costOf(list, client.getInstructions() ?? ''), tools: list.tools };
  } finally {
    await client.close();
  }
}
