// /mcp: the same tools as `hashline mcp`, over the SDK's Streamable HTTP transport. Stateful: an
// `initialize` POST opens a session (its own SDK Server and transport, keyed by the
// `mcp-session-id` the transport issues); later requests carry that header; DELETE ends it. Sessions
// are kept in memory, at most `maxSessions`: past that, a new session takes the place of the least
// recently used one idle for `idleMs` (no request in flight, none for that long), and when none is
// idle it is refused with 429, so no client can close the sessions (and preview receipts) of clients
// at work by opening many. All are closed when the daemon shuts down. A call whose HTTP request closes before its answer is
// cancelled. Host, Origin and bearer checks run before this (server.ts).

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { mcpSessionsFull } from '../core/messages/http.js';
import { createMcpServer } from '../mcp/server.js';
import type { Engine } from '../tools/engine.js';
import type { ToolDefinition } from '../tools/tool.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** Requests of the session in flight (an open event stream included). */
  active: number;
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
  /** Sessions being opened: they hold a slot before their id exists. */
  private opening = 0;

  constructor(
    private readonly engine: Engine,
    private readonly tools: readonly ToolDefinition[],
    private readonly maxSessions: number,
    private readonly idleMs: number,
    private readonly now: () => number = Date.now,
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
      s.lastUsed = this.now();
      s.active++;
      res.once('close', () => {
        s.active--;
        s.lastUsed = this.now();
      });
      cancelOnClose(s.transport, res, body);
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
    }
    const evicted = this.makeRoom();
    if (evicted === null) {
      res.setHeader('retry-after', String(Math.max(1, Math.ceil(this.idleMs / 1000 / 10))));
      return jsonRpcError(res, 429, -32000, mcpSessionsFull(this.maxSessions, this.idleMs));
    }
    this.opening++;
    try {
      await Promise.all(evicted.map((s) => s.server.close().catch(() => undefined)));
      const server = createMcpServer(this.engine, this.tools);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, { transport, server, lastUsed: this.now(), active: 0 });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      this.opening--;
    }
  }

  /**
   * Frees a slot for a new session, synchronously (so sessions opened at once cannot all pass):
   * the sessions taken out to be closed, or null when every slot is held by a session in use.
   */
  private makeRoom(): Session[] | null {
    const need = this.sessions.size + this.opening + 1 - this.maxSessions;
    if (need <= 0) return [];
    const at = this.now();
    const idle = [...this.sessions]
      .filter(([, s]) => s.active === 0 && at - s.lastUsed >= this.idleMs)
      .sort((x, y) => x[1].lastUsed - y[1].lastUsed)
      .slice(0, need);
    if (idle.length < need) return null;
    for (const [id] of idle) this.sessions.delete(id);
    return idle.map(([, s]) => s);
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
  }
}
