// The two lines of the official MCP TypeScript client, each over a spawned `hashline mcp` on stdio:
// the SDK 1.x `Client` (@modelcontextprotocol/sdk, Ajv draft-07) and the 2.x `Client`
// (@modelcontextprotocol/client, Ajv 2020-12 for a schema that declares no dialect). `callTool`
// of either validates a successful structured reply against the listed output schema; a reply
// with `isError: true` is not checked by the clients, so `call` checks it with the same client's
// own validator, and checks the arguments against the listed input schema the same way.

import { Client as Client2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { AjvJsonSchemaValidator as Validator2 } from '@modelcontextprotocol/client/validators/ajv';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator as Validator1 } from '@modelcontextprotocol/sdk/validation/ajv';
import { CLI_SOURCE, REPO } from './mcp-client.js';

export type ClientLine = 'sdk-1.x' | 'client-2.x';
export const CLIENT_LINES: readonly ClientLine[] = ['sdk-1.x', 'client-2.x'];

export interface Reply {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

interface Listed {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

type Check = (data: unknown) => { valid: boolean; errorMessage?: string | undefined };

export interface LineSession {
  readonly line: ClientLine;
  readonly instructions: string;
  readonly tools: readonly Listed[];
  /** `callTool` of this client line; `checkInput: false` for arguments meant to be refused. */
  call(name: string, args: Record<string, unknown>, options?: { checkInput?: boolean }): Promise<Reply>;
  close(): Promise<void>;
}

function checker(validator: { getValidator(schema: never): Check }, schema: Record<string, unknown>): Check {
  return validator.getValidator(schema as never);
}

/** Spawns `hashline mcp ARGS` on the TypeScript sources and connects a client of `line`; lists the tools first so `callTool` validates. */
export async function connectLine(line: ClientLine, args: string[]): Promise<LineSession> {
  const spawn = { command: process.execPath, args: ['--import', 'tsx', CLI_SOURCE, 'mcp', ...args], cwd: REPO, stderr: 'ignore' as const };
  const info = { name: `hashline-interop-${line}`, version: '0.0.0' };
  const client = line === 'sdk-1.x' ? new Client1(info) : new Client2(info);
  const validator = line === 'sdk-1.x' ? new Validator1() : new Validator2();
  await client.connect((line === 'sdk-1.x' ? new Stdio1(spawn) : new Stdio2(spawn)) as never);
  const tools = (await client.listTools()).tools as unknown as Listed[];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const input = new Map<string, Check>();
  const output = new Map<string, Check>();
  return {
    line,
    instructions: client.getInstructions() ?? '',
    tools,
    async call(name, args, options = {}) {
      const tool = byName.get(name);
      if (!tool) throw new Error(`${name} is not listed`);
      if (options.checkInput !== false) {
        const check = input.get(name) ?? checker(validator, tool.inputSchema);
        input.set(name, check);
        const r = check(args);
        if (!r.valid) throw new Error(`${line}: arguments of ${name} do not match its input schema: ${r.errorMessage}`);
      }
      const reply = (await client.callTool({ name, arguments: args })) as unknown as Reply;
      if (reply.isError === true && reply.structuredContent !== undefined && tool.outputSchema) {
        const check = output.get(name) ?? checker(validator, tool.outputSchema);
        output.set(name, check);
        const r = check(reply.structuredContent);
        if (!r.valid) throw new Error(`${line}: the error reply of ${name} does not match its output schema: ${r.errorMessage}`);
      }
      return reply;
    },
    close: () => client.close(),
  };
}
