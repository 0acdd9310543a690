// Calls of boundary tools over a real MCP session, unwrapped from their envelope.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { McpSession } from './mcp-client.js';

export interface EnvelopeError {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  suggestedNextCall?: string;
}

export const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The `data` of a successful call; fails the test on an error envelope. */
export async function ok<T = Record<string, unknown>>(mcp: McpSession, tool: string, args: Record<string, unknown>): Promise<T> {
  const r = (await mcp.call(tool, args)) as CallToolResult;
  const env = r.structuredContent as { ok: boolean; data?: T; error?: EnvelopeError };
  assert.equal(env.ok, true, `${tool} failed: ${JSON.stringify(env.error)}`);
  assert.notEqual(r.isError, true);
  return env.data as T;
}

/** The `error` of a failed call; fails the test when the call succeeded. */
export async function fails(mcp: McpSession, tool: string, args: Record<string, unknown>): Promise<EnvelopeError> {
  const r = (await mcp.call(tool, args)) as CallToolResult;
  const env = r.structuredContent as { ok: boolean; error?: EnvelopeError };
  assert.equal(env.ok, false, `${tool} succeeded unexpectedly`);
  assert.equal(r.isError, true);
  return env.error!;
}
