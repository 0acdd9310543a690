// The MCP adapter: lists the selected tools with their JSON schemas and annotations, validates
// arguments with the tool's strict zod schema before running it, and maps results and coded errors
// to MCP results (hashline family: the seed's shapes; boundary family: the { ok, data | error } envelope).
// The reply of a tool that changes files is fitted to the message limit (reply-fit.ts), so a change
// that landed is never answered as a failure, on either transport.

import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { errorEnvelope, okEnvelope } from '../core/errors/envelope.js';
import { isErrorCode } from '../core/errors/codes.js';
import { HashlineError, toHashlineError, type ErrorCode } from '../core/errors/errors.js';
import { BATCH_LIMIT_PARAM } from '../tools/boundary/boundary-batch.js';
import { engineForCall, type Engine } from '../tools/engine.js';
import { PROCESS_SESSION_ID, type CallContext, type ToolDefinition } from '../tools/tool.js';
import { isLazyTool, prefetchLazyTools, type LazyTool } from '../tools/tool-loaders.js';
import { instructionsFor } from './instructions.js';
import { fitReply } from './reply-fit.js';
import { bundledListing, listTools, toolListing, type ToolListing } from './tool-listing.js';
import { VERSION } from '../version.js';

function errorPayload(e: HashlineError) {
  return {
    code: e.code,
    message: e.message,
    retryable: e.retryable,
    ...(e.details === undefined ? {} : { details: e.details }),
    ...(e.suggestedNextCall === undefined ? {} : { suggestedNextCall: e.suggestedNextCall }),
  };
}

function errorResult(tool: Pick<ToolDefinition, 'family'>, e: HashlineError): CallToolResult {
  return toolErrorResult(tool.family, e);
}

/** A coded error as the result of a tool of `family`: the boundary envelope, or the hashline family's `{ error }`. */
export function toolErrorResult(family: ToolDefinition['family'], e: HashlineError): CallToolResult {
  if (family === 'boundary') {
    const envelope = errorEnvelope(e);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope };
  }
  return { isError: true, content: [{ type: 'text', text: `[${e.code}] ${e.message}` }], structuredContent: { error: errorPayload(e) } };
}

/** The coded error for arguments that do not match a tool's input schema (a rule that names its code, such as `batch_limit`, keeps it). */
export function invalidArguments(error: z.ZodError): HashlineError {
  // a schema rule that names its own code (batch_limit, chattr_refused) is reported with it
  const codeOf = (i: z.core.$ZodIssue): ErrorCode | undefined => {
    const named = i.code === 'custom' ? String((i.params as { hashline?: string } | undefined)?.hashline) : '';
    return isErrorCode(named) ? named : undefined;
  };
  const coded = error.issues.find((i) => codeOf(i) !== undefined);
  if (coded) {
    const code = codeOf(coded)!;
    const at = coded.path.join('.');
    return new HashlineError(code, coded.message, { details: { path: at, ...(code === BATCH_LIMIT_PARAM ? {} : { filePath: String(coded.path[1] ?? '') }) } });
  }
  const issues = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`);
  return new HashlineError('invalid_arguments', `invalid arguments: ${issues.join('; ')}`, { details: { issues } });
}

export interface RunOptions {
  /**
   * A read-only tool's records (the versions it found on disk, the lines it showed) commit right
   * after its reply is handed to the transport, in the same turn of the event loop, instead of
   * before it: they acknowledge no change. The MCP server sets it; a direct caller that looks at
   * the store as soon as the call returns leaves it off.
   */
  readonly commitReadsAfterReply?: boolean;
}

export async function runTool(engine: Engine, tool: ToolDefinition, args: unknown, call: CallContext, options: RunOptions = {}): Promise<CallToolResult> {
  const result = await runToolUnfitted(engine, tool, args, call, options);
  return tool.annotations.readOnlyHint ? result : fitReply(result);
}

async function runToolUnfitted(engine: Engine, tool: ToolDefinition, args: unknown, call: CallContext, options: RunOptions): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(tool, invalidArguments(parsed.error));
  try {
    // an edited configuration file applies from the next call on (one stat when unchanged)
    await engine.refreshConfig();
    const origin = { tool: tool.name, client: call.client?.id ?? 'library', clientName: call.client?.name, batch: randomUUID() };
    let out;
    try {
      out = await tool.run(engineForCall(engine, origin), parsed.data, call);
    } finally {
      // what the call recorded is stored before the reply says it happened; a read's sightings
      // may follow its reply (see RunOptions)
      if (options.commitReadsAfterReply === true && tool.annotations.readOnlyHint && engine.history.flushSoon) engine.history.flushSoon();
      else await engine.history.flush();
    }
    if (tool.family === 'boundary') {
      // The family's text block is the envelope's JSON (tools report failures by throwing).
      const envelope = okEnvelope(out.structured);
      return { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope as unknown as Record<string, unknown> };
    }
    return {
      ...(out.isError ? { isError: true } : {}),
      content: [{ type: 'text', text: out.text }],
      structuredContent: out.structured as Record<string, unknown>,
    };
  } catch (e) {
    const err = toHashlineError(e);
    if (err.code === 'internal') process.stderr.write(`hashline: internal error in ${tool.name}: ${(e as Error)?.stack ?? e}\n`);
    return errorResult(tool, err);
  }
}

/** The instructions, plus a line when the history is not the durable one asked for (a fallback to memory; an engine made after initialize is not known yet). */
function withHistoryNote(instructions: string, engine: Engine): string {
  const warning = engine.history.status().warning;
  return warning === undefined ? instructions : `${instructions}\n\nHistory: ${warning}.`;
}

/**
 * The engine a call runs on, or a function that gives it when it is known (the MCP roots of a
 * client arrive after `initialize`) or throws the coded refusal every call then answers.
 */
export type EngineSource = Engine | (() => Promise<Engine>);

/** A tool the server serves: its definition, or a lazy entry whose module loads on its first call (tools/tool-loaders.ts). */
export type ServedTool = ToolDefinition | LazyTool;

/** The tools/list entries: a lazy entry's from the listing made at bundle time when there is one (its module stays unloaded). */
async function listServed(tools: readonly ServedTool[]): Promise<ToolListing[]> {
  // modules to convert (not bundled) are imported together, so their loads overlap
  const loaded = await Promise.all(tools.map((t) => (isLazyTool(t) && bundledListing(t.name) === undefined ? t.load() : undefined)));
  let registry: readonly ToolDefinition[] | undefined;
  const out: ToolListing[] = [];
  for (const [i, t] of tools.entries()) {
    if (isLazyTool(t)) {
      out.push(bundledListing(t.name) ?? toolListing(loaded[i]!));
      continue;
    }
    // a definition passed in: the bundled entry only when it is the registry's own definition
    registry ??= (await import('../tools/registry.js')).ALL_TOOLS;
    out.push(...listTools([t], registry));
  }
  return out;
}

/** How long after the first tools/list answer the tools' modules start loading. */
const PREFETCH_DELAY_MS = 20;

export function createMcpServer(engine: EngineSource, tools: readonly ServedTool[]): Server {
  // the instructions name only the tools listed
  const instructions = instructionsFor(tools.map((t) => t.name));
  const server = new Server(
    { name: 'hashline', version: VERSION },
    { capabilities: { tools: {} }, instructions: typeof engine === 'function' ? instructions : withHistoryNote(instructions, engine) },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  // stdio has no session id: one per server, so the log tells this client's calls from another's
  const stdioId = `mcp-stdio:${randomUUID().slice(0, 8)}`;
  let listed: Promise<ToolListing[]> | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const first = listed === undefined;
    const listing = await (listed ??= listServed(tools));
    // once the list is answered, the tools' modules load in the background, so a client's first
    // call does not wait for its tool's module (grammars, the history store and the SQL worker
    // still open on first use)
    if (first) setTimeout(() => void prefetchLazyTools(tools), PREFETCH_DELAY_MS).unref();
    return { tools: listing };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const served = byName.get(request.params.name);
    if (!served) {
      return {
        isError: true,
        content: [{ type: 'text', text: `[invalid_arguments] unknown tool \`${request.params.name}\`; call tools/list` }],
      };
    }
    const tool = isLazyTool(served) ? await served.load() : served;
    const token = request.params._meta?.progressToken;
    // Progress notifications are sent in order and all of them before the result (a client drops
    // progress that arrives after the response).
    let sent: Promise<unknown> = Promise.resolve();
    const call: CallContext = {
      signal: extra.signal,
      client: { id: extra.sessionId === undefined ? stdioId : `mcp-http:${extra.sessionId}`, name: server.getClientVersion()?.name },
      // Streamable HTTP names the session; stdio is one session per process
      sessionId: extra.sessionId ?? PROCESS_SESSION_ID,
      progress: (p) => {
        if (token === undefined) return;
        sent = sent
          .then(() => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } }))
          .catch(() => undefined);
      },
    };
    let current: Engine;
    try {
      current = typeof engine === 'function' ? await engine() : engine;
    } catch (e) {
      return errorResult(tool, toHashlineError(e));
    }
    const result = await runTool(current, tool, request.params.arguments, call, { commitReadsAfterReply: true });
    await sent;
    return result;
  });
  return server;
}
