// The HTTP daemon: a fastify instance with the file routes, /mcp, health, schema and the web console
// (console/console-routes.ts). Every request passes the Host/Origin check (DNS rebinding) and,
// except health, schema and the console (which has its own sessions), the bearer check. PUT writes
// are recorded in the history (put-history.ts).
// Bodies are never parsed by fastify: one catch-all content-type parser passes the raw stream
// through, the file and tar routes stream it with their own byte limits and /mcp reads its JSON
// within the MCP message limit. Errors are text/plain with the code in `hashline-error-code`.

import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { MAX_MESSAGE_BYTES } from '../core/config/config.js';
import { HashlineError } from '../core/errors/errors.js';
import { FOREIGN_HOST, FOREIGN_ORIGIN, UNAUTHORIZED } from '../core/messages/http.js';
import type { Engine } from '../tools/engine.js';
import type { ToolDefinition } from '../tools/tool.js';
import { VERSION } from '../version.js';
import { bearerChecker, httpClientId } from './auth.js';
import { type ConsoleHandle, isConsoleUrl, registerConsole } from './console/console-routes.js';
import { availableBytes } from './file/disk-space.js';
import { ERROR_CODE_HEADER, sendError } from './error-reply.js';
import { installFastFileGet } from './file/fast-file-get.js';
import { readFileWindow } from './file/file-read.js';
import { writeFileFromRequest } from './file/file-write.js';
import { hostPolicy } from './host-check.js';
import { idleReaper } from './idle-reaper.js';
import { type HttpLimits, resolveLimits } from './limits.js';
import type { McpSessions } from './mcp-endpoint.js';
import { openApiDocument } from './openapi.js';
import { PutRecorder } from './file/put-history.js';
import { isBodyTimeout, readBody } from './file/request-body.js';
import { fastifySchema, FILE_GET, FILE_PUT, HEALTH, MCP_POST, ROUTE_SPECS, type RouteSpec, SCHEMA, TAR_GET, TAR_PUT } from './route-schemas.js';
import { extractTarFromRequest } from './tar/tar-extract.js';
import { packDirectory } from './tar/tar-pack.js';

export interface HttpServerOptions {
  /** The tools served on /mcp, or a loader called on the first /mcp session (keeps the SDK out of an idle daemon). */
  tools: readonly ToolDefinition[] | (() => Promise<readonly ToolDefinition[]>);
  /** Bearer token; undefined serves without one (the CLI allows that on loopback only). */
  token?: string | undefined;
  /** The address the daemon binds (used for the Host/Origin defaults). */
  host?: string;
  /** Replaces the default Host/Origin list (loopback names plus `host`). */
  allowedHosts?: readonly string[] | undefined;
  limits?: Partial<HttpLimits>;
  logger?: boolean;
  /** Milliseconds between the console's looks at the history store while its feed is watched. */
  consolePollMs?: number;
  /**
   * Answer the plain GET /v1/fs/file before fastify (fast-file-get.ts; default: on unless
   * `logger`). Hooks added to the returned app do not see the requests it answers: turn it off
   * when one must.
   */
  fastFileGet?: boolean;
}

export interface HttpServer {
  app: FastifyInstance;
  limits: HttpLimits;
  console: ConsoleHandle;
}

type Query = Record<string, string | undefined>;

export const VERSION_HEADER = 'hashline-version';

/** Bodies up to this size are drained after a refusal; larger ones end the connection instead. */
const DRAIN_BYTES = 1024 * 1024;

/**
 * A refused request may leave its body unread, which would keep the connection busy (and a
 * graceful shutdown waiting): small bodies are drained, larger or unsized ones close the
 * connection, and so does a body that stalled (nothing more is waited for).
 */
function settleBody(request: FastifyRequest, reply: FastifyReply, error?: unknown): void {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded) return;
  if (isBodyTimeout(error)) {
    reply.header('connection', 'close');
    return;
  }
  const length = raw.headers['content-length'];
  if (length !== undefined && Number(length) <= DRAIN_BYTES) raw.resume();
  else reply.header('connection', 'close');
}

export async function createHttpServer(engine: Engine, options: HttpServerOptions): Promise<HttpServer> {
  const limits = resolveLimits(options.limits);
  const app = Fastify({
    logger: options.logger ?? false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    bodyLimit: MAX_MESSAGE_BYTES,
    forceCloseConnections: 'idle',
    // a backstop for bodies no route reads; the routes that read one apply their own clocks
    requestTimeout: limits.requestTimeoutMs,
    return503OnClosing: true,
  });
  const checkToken = bearerChecker(options.token);
  const hosts = hostPolicy(options.host ?? '127.0.0.1', options.allowedHosts);
  // the MCP SDK (and the tools) load on the first /mcp request, so a daemon serving files stays small
  let mcp: McpSessions | undefined;
  let mcpLoading: Promise<McpSessions> | undefined;
  const sessions = () =>
    (mcpLoading ??= (async () => {
      const { McpSessions } = await import('./mcp-endpoint.js');
      const tools = typeof options.tools === 'function' ? await options.tools() : options.tools;
      return (mcp = new McpSessions(engine, tools, limits.maxMcpSessions, limits.mcpSessionIdleMs));
    })());
  const open = new Set(ROUTE_SPECS.filter((s) => !s.auth).map((s) => s.url));
  const client = httpClientId(options.token);
  let busy = 0;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  app.addHook('onRequest', async (request, reply) => {
    const url = request.url.split('?', 1)[0]!;
    // counted until the response closes, which it does whether it was sent or its client went away
    // (an aborted request never reaches onResponse); the console's event streams are not counted,
    // they stay open while watched
    if (url !== '/console/api/events') {
      busy++;
      reply.raw.once('close', () => busy--);
    }
    reply.header(VERSION_HEADER, VERSION);
    const host = request.headers.host;
    const refuse = (code: 'forbidden' | 'unauthorized', message: string) => {
      settleBody(request, reply);
      return sendError(reply, new HashlineError(code, message));
    };
    if (!hosts.hostAllowed(host)) return refuse('forbidden', FOREIGN_HOST);
    if (!hosts.originAllowed(request.headers.origin, host)) return refuse('forbidden', FOREIGN_ORIGIN);
    if (!open.has(url) && !isConsoleUrl(url) && !checkToken(request.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer');
      return refuse('unauthorized', UNAUTHORIZED);
    }
    // an edited configuration file applies from the next request on (one stat when unchanged)
    await engine.refreshConfig();
    return undefined;
  });
  let closing = false;
  // a shutdown waits for the requests in flight, not for idle connections
  const reaper = idleReaper(app.server);
  if (options.fastFileGet ?? !options.logger) {
    installFastFileGet(app.server, {
      engine,
      hosts,
      checkToken,
      closing: () => closing,
      track: (delta) => (busy += delta),
      version: VERSION,
      versionHeader: VERSION_HEADER,
    });
  }
  let consoleHandle: ConsoleHandle | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    reaper.start();
    consoleHandle?.close();
    await mcp?.closeAll();
  });
  // requests that finish during a shutdown end their connection, so none lingers in keep-alive
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  app.setErrorHandler((error: FastifyError | HashlineError, request, reply) => {
    settleBody(request, reply, error);
    if (error instanceof HashlineError) return sendError(reply, error);
    const status = error.statusCode ?? 500;
    if (error.validation || status === 400) {
      return reply.code(400).header(ERROR_CODE_HEADER, 'invalid_arguments').type('text/plain; charset=utf-8').send(error.message);
    }
    if (status === 413) return sendError(reply, new HashlineError('too_large', error.message));
    return sendError(reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).header(ERROR_CODE_HEADER, 'not_found').type('text/plain; charset=utf-8').send(`no route ${request.method} ${request.url.split('?', 1)[0]}`),
  );

  const route = (spec: RouteSpec, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.route({ method: spec.method, url: spec.url, schema: fastifySchema(spec), handler });

  route(FILE_GET, async (request, reply) => {
    const body = await readFileWindow(engine, request.query as Query);
    return reply.code(200).type('application/octet-stream').send(body);
  });
  route(FILE_PUT, async (request, reply) => {
    await writeFileFromRequest(engine, limits, request.query as Query, request.raw, undefined, new PutRecorder(engine, 'http_put_file', client));
    return reply.code(204).send();
  });
  route(TAR_GET, async (request, reply) => {
    const stream = await packDirectory(engine, limits, request.query as Query);
    return reply.code(200).type('application/x-tar').send(stream);
  });
  route(TAR_PUT, async (request, reply) => {
    await extractTarFromRequest(engine, limits, request.query as Query, request.raw, new PutRecorder(engine, 'http_put_tar', client));
    return reply.code(204).send();
  });
  route(HEALTH, async () => {
    const available = await availableBytes(engine.guard.realRoot).catch(() => null);
    return {
      version: VERSION,
      disk: available === null ? null : { available_bytes: available, reserve_bytes: limits.diskReserveBytes, under_pressure: available < limits.diskReserveBytes },
      busy: Math.max(0, busy - 1),
      mcp_sessions: mcp?.size ?? 0,
    };
  });
  const schemaDoc = openApiDocument(ROUTE_SPECS);
  route(SCHEMA, async () => schemaDoc);

  const mcpHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    let body: unknown;
    if (request.method === 'POST') {
      const raw = await readBody(request.raw, { limit: MAX_MESSAGE_BYTES, idleMs: limits.bodyIdleTimeoutMs, totalMs: limits.requestTimeoutMs });
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply.code(400).type('application/json').send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      }
    }
    const endpoint = await sessions();
    reply.hijack();
    try {
      await endpoint.handle(request.raw, reply.raw, body);
    } catch (e) {
      request.log.error({ err: e }, 'mcp request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'text/plain' });
      reply.raw.end();
    }
    return reply;
  };
  app.route({ method: ['POST', 'GET', 'DELETE'], url: MCP_POST.url, schema: { headers: MCP_POST.headers }, handler: mcpHandler });

  consoleHandle = await registerConsole(app, engine, {
    token: options.token,
    bodyIdleTimeoutMs: limits.bodyIdleTimeoutMs,
    requestTimeoutMs: limits.requestTimeoutMs,
    ...(options.consolePollMs === undefined ? {} : { pollMs: options.consolePollMs }),
  });

  return { app, limits, console: consoleHandle };
}
