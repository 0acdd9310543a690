// The MCP adapter: lists the selected tools with their JSON schemas and annotations, validates
// arguments with the tool's strict zod schema before running it, and maps results and coded errors
// to MCP results (hashline family: the seed's shapes; boundary family: the { ok, data | error } envelope).
// The reply of a tool that changes files is fitted to the message limit (reply-fit.ts), so a change
// that landed is never answered as a failure, on either transport.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorEnvelope, okEnvelope } from '../core/envelope.js';
import { HashlineError, toHashlineError } from '../core/errors.js';
import { BATCH_LIMIT_PARAM } from '../tools/boundary-batch.js';
import type { Engine } from '../tools/engine.js';
import type { CallContext, ToolDefinition } from '../tools/tool.js';
import { INSTRUCTIONS } from './instructions.js';
import { fitReply } from './reply-fit.js';
import { VERSION } from '../version.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

const ErrorShape = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  details: z.record(z.string(), z.unknown()).optional(),
  suggestedNextCall: z.string().optional(),
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete out.$schema;
  return out;
}

/** The output schema a client sees: hashline tools gain an optional `error`; boundary tools the envelope. */
function outputSchemaFor(tool: ToolDefinition): JsonSchema {
  const own = jsonSchema(tool.output, 'output');
  const error = jsonSchema(ErrorShape, 'output');
  if (tool.family === 'boundary') {
    return {
      type: 'object',
      properties: { ok: { type: 'boolean' }, data: own, error },
      required: ['ok'],
      additionalProperties: false,
    };
  }
  // A result is either the tool's own shape or a coded error: the tool's required fields apply
  // unless `error` is there.
  const { required, ...rest } = own;
  return {
    ...rest,
    properties: { ...(own.properties ?? {}), error },
    ...(required && required.length > 0 ? { anyOf: [{ required }, { required: ['error'] }] } : {}),
  };
}

function errorPayload(e: HashlineError) {
  return {
    code: e.code,
    message: e.message,
    retryable: e.retryable,
    ...(e.details === undefined ? {} : { details: e.details }),
    ...(e.suggestedNextCall === undefined ? {} : { suggestedNextCall: e.suggestedNextCall }),
  };
}

function errorResult(tool: ToolDefinition, e: HashlineError): CallToolResult {
  if (tool.family === 'boundary') {
    const envelope = errorEnvelope(e);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: envelope };
  }
  return { isError: true, content: [{ type: 'text', text: `[${e.code}] ${e.message}` }], structuredContent: { error: errorPayload(e) } };
}

/** The coded error for arguments that do not match a tool's input schema (`batch_limit` for a batch out of 1-50). */
export function invalidArguments(error: z.ZodError): HashlineError {
  const limit = error.issues.find((i) => i.code === 'custom' && (i.params as { hashline?: string } | undefined)?.hashline === BATCH_LIMIT_PARAM);
  if (limit) return new HashlineError('batch_limit', limit.message, { details: { path: limit.path.join('.') } });
  const issues = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`);
  return new HashlineError('invalid_arguments', `invalid arguments: ${issues.join('; ')}`, { details: { issues } });
}

export async function runTool(engine: Engine, tool: ToolDefinition, args: unknown, call: CallContext): Promise<CallToolResult> {
  const result = await runToolUnfitted(engine, tool, args, call);
  return tool.annotations.readOnlyHint ? result : fitReply(result);
}

async function runToolUnfitted(engine: Engine, tool: ToolDefinition, args: unknown, call: CallContext): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(tool, invalidArguments(parsed.error));
  try {
    // an edited configuration file applies from the next call on (one stat when unchanged)
    await engine.refreshConfig();
    const out = await tool.run(engine, parsed.data, call);
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

/**
 * The engine a call runs on, or a function that gives it when it is known (the MCP roots of a
 * client arrive after `initialize`) or throws the coded refusal every call then answers.
 */
export type EngineSource = Engine | (() => Promise<Engine>);

export function createMcpServer(engine: EngineSource, tools: readonly ToolDefinition[]): Server {
  const server = new Server(
    { name: 'hashline', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input') as { type: 'object' },
    outputSchema: outputSchemaFor(t) as { type: 'object' },
    annotations: { title: t.title, ...t.annotations },
  }));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return {
        isError: true,
        content: [{ type: 'text', text: `[invalid_arguments] unknown tool \`${request.params.name}\`; call tools/list` }],
      };
    }
    const token = request.params._meta?.progressToken;
    // Progress notifications are sent in order and all of them before the result (a client drops
    // progress that arrives after the response).
    let sent: Promise<unknown> = Promise.resolve();
    const call: CallContext = {
      signal: extra.signal,
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
    const result = await runTool(current, tool, request.params.arguments, call);
    await sent;
    return result;
  });
  return server;
}
