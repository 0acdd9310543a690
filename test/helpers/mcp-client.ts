// A real MCP client (the official SDK's Client over stdio) talking to a spawned `hashline mcp`.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliArgs, REPO } from './cli.js';

export { CLI_BIN, CLI_SOURCE, cliArgs, REPO } from './cli.js';

export interface McpSession {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
  stderr(): string;
}

/** Spawns `hashline mcp` (the built bin, see cli.ts) with `args` and connects a client. */
export async function connectMcp(args: string[], options: { cwd?: string } = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgs(), 'mcp', ...args],
    cwd: options.cwd ?? REPO,
    stderr: 'pipe',
    env: { ...process.env } as Record<string, string>,
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'hashline-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
    stderr: () => err,
  };
}

/** The text of the first content block of a result. */
export function textOf(result: CallToolResult): string {
  const block = result.content[0];
  return block && block.type === 'text' ? block.text : '';
}
