// MCP sessions for the bench: the official SDK Client over stdio, driving either the built
// `hashline mcp` or the reference filesystem server, so both sides pay the same client costs.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface McpSide {
  client: Client;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
  pid(): number | null;
  stderr(): string;
}

export async function connectStdio(command: string, args: string[], cwd: string, clientName = 'hashline-bench', env: Record<string, string> = {}): Promise<McpSide> {
  const transport = new StdioClientTransport({ command, args, cwd, stderr: 'pipe', env: { ...process.env, ...env } as Record<string, string> });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => {
    if (err.length < 64 * 1024) err += c.toString();
  });
  const client = new Client({ name: clientName, version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    call: async (name, a) => (await client.callTool({ name, arguments: a }, undefined, { timeout: 180_000 })) as CallToolResult,
    close: () => client.close(),
    pid: () => transport.pid,
    stderr: () => err,
  };
}

/** The unbundled CLI the build writes (dist/cli/main.js): in-process profiles and the unbundled cold-start row. */
export function hashlineCli(repo: string): string {
  return path.join(repo, 'dist/cli/main.js');
}

/** The shipped bin (bin/hashline.mjs, the bundled CLI): what `npx hashline` and `npm start` run; every timed row spawns it. */
export function shippedBin(repo: string): string {
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  return path.join(repo, pkg.bin?.hashline ?? 'bin/hashline.mjs');
}

export function connectHashline(repo: string, root: string, extra: string[] = []): Promise<McpSide> {
  return connectStdio(process.execPath, [shippedBin(repo), 'mcp', '--root', root, ...extra], root);
}

export function connectReference(serverScript: string, root: string): Promise<McpSide> {
  return connectStdio(process.execPath, [serverScript, root], root);
}

/** The `data` of a boundary tool's envelope, or throws with the error envelope. */
export function envelopeData<T>(r: CallToolResult): T {
  okText(r);
  const sc = r.structuredContent as { ok: boolean; data?: T; error?: unknown } | undefined;
  if (!sc?.ok) throw new Error(`error envelope: ${JSON.stringify(sc).slice(0, 300)}`);
  return sc.data as T;
}

/** The text of the first content block, or throws with it when the call is an error. */
export function okText(r: CallToolResult): string {
  const block = r.content[0];
  const text = block && block.type === 'text' ? block.text : '';
  if (r.isError) throw new Error(`tool error: ${text.slice(0, 300)}`);
  return text;
}
