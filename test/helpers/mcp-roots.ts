// A real MCP client (the official SDK's Client over stdio) that offers MCP roots to a spawned
// `hashline mcp` started without --root, and can change them (roots/list_changed).

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliArgs } from './mcp-client.js';

export interface RootsSession {
  client: Client;
  /** Calls a tool: whether it answered an error, and the text of its first block. */
  text(name: string, args: Record<string, unknown>): Promise<{ error: boolean; text: string }>;
  /** How many times the server asked for the roots. */
  listed(): number;
  /** Offers `next` as the roots and notifies the server. */
  setRoots(next: string[]): Promise<void>;
  stderr(): string;
}

/** Spawns `hashline mcp` (no --root, sources through tsx) in `cwd`; `roots` undefined: the client has no roots capability. */
export async function connectWithRoots(opts: { cwd: string; roots?: string[]; env?: Record<string, string>; args?: string[] }): Promise<RootsSession> {
  let roots = opts.roots;
  const client = new Client({ name: 'roots-test', version: '0' }, { capabilities: roots ? { roots: { listChanged: true } } : {} });
  let listed = 0;
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      listed++;
      return { roots: roots!.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })) };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...cliArgs(), 'mcp', ...(opts.args ?? [])],
    cwd: opts.cwd,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), ...opts.env },
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${(e as Error).message}; the server said: ${err}`);
  }
  const text = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const b = r.content[0];
    return { error: r.isError === true, text: b && b.type === 'text' ? b.text : '' };
  };
  return {
    client,
    text,
    listed: () => listed,
    setRoots: async (next: string[]) => {
      roots = next;
      await client.sendRootsListChanged();
    },
    stderr: () => err,
  };
}

/** Polls `probe` (up to 5 s) until it answers true: a roots change applies from a later call. */
export async function eventually(probe: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (await probe()) return true;
    await new Promise((res) => setTimeout(res, 100));
  }
  return false;
}
