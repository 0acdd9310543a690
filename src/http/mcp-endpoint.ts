// /mcp: the same tools as `hashline mcp`, over the SDK's Streamable HTTP transport. Stateful: an
// `initialize` POST opens a session (its own SDK Server and transport, keyed by the
// `mcp-session-id` the transport issues); later requests carry that header; DELETE ends it. Sessions
// are kept in memory, at most `maxSessions` (the least recently used is closed beyond that), and all
// are closed when the daemon shuts down. A call whose HTTP request closes before its answer is
// cancelled. Host, Origin and bearer checks run before this (server.ts).

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../mcp/server.js';
import type { Engine } from '../tools/engine.js';
import type { ToolDefinition } from '../tools/tool.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
function requestIds(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const id = (m as { id?: unknown; method?: unknown } | null)?.id;
    return typeof (m as { method?: unknown } | null)?.method === 'string' && (typeof id === 'string' || typeof id === 'number') ? [id] : [];
  });
}

/**
 * A client that closes the HTTP request of a call gives up on it: the call is cancelled as if the
 * client had sent notifications/cancelled, so a running batch stops at its next file and rolls back.
 */
function cancelOnClose(transport: StreamableHTTPServerTransport, res: ServerResponse, body: unknown): void {
  const ids = requestIds(body);
  if (ids.length === 0) return;
  res.once('close', () => {
    if (res.writableFinished) return;
    for (const requestId of ids) {
      transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'the HTTP request was closed' } });
    }
  });
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly engine: Engine,
    private readonly tools: readonly ToolDefinition[],
    private readonly maxSessions: number,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Serves one request; `body` is the parsed JSON of a POST. */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const s = this.sessions.get(sid);
      if (!s) return jsonRpcError(res, 404, -32001, 'Session not found');
      s.lastUsed = Date.now();
      cancelOnClose(s.transport, res, body);
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
    }
    await this.evict();
    const server = createMcpServer(this.engine, this.tools);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private async evict(): Promise<void> {
    while (this.sessions.size >= this.maxSessions && this.sessions.size > 0) {
      let oldest: [string, Session] | undefined;
      for (const entry of this.sessions) if (!oldest || entry[1].lastUsed < oldest[1].lastUsed) oldest = entry;
      if (!oldest) return;
      this.sessions.delete(oldest[0]);
      await oldest[1].server.close().catch(() => undefined);
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
