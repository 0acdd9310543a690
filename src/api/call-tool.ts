// Calling a tool from code: the arguments are checked against the tool's strict zod schema, the
// tool runs on the engine, and the outcome comes back as one shape for both families: the tool's
// result in `data`, or a coded `error` (the same codes the MCP and HTTP faces report).

import type * as z from 'zod';
import { toHashlineError, type ErrorCode } from '../core/errors/errors.js';
import { invalidArguments } from '../mcp/server.js';
import { randomUUID } from 'node:crypto';
import { engineForCall, type Engine } from '../tools/engine.js';
import type { Progress, ToolDefinition } from '../tools/tool.js';

export interface ToolError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  suggestedNextCall?: string;
}

export type ToolReply<O> =
  /** `text` is what a model would read (the MCP text block). */
  | { ok: true; data: O; text: string }
  /** `data` is set when the tool reports a failure with a result of its own (a failed fs_edit batch lists what was applied). */
  | { ok: false; error: ToolError; data?: O; text: string };

export interface CallOptions {
  signal?: AbortSignal;
  /** Who is calling, as the history's log names it (default `library`). */
  client?: string;
  onProgress?: (p: Progress) => void;
}

/** Runs `tool` on `engine` with `args`; never throws for a refusal (it is the reply's `error`). */
export async function callTool<I extends z.ZodType, O extends z.ZodType>(
  engine: Engine,
  tool: ToolDefinition<I, O>,
  args: z.input<I>,
  options: CallOptions = {},
): Promise<ToolReply<z.infer<O>>> {
  const parsed = tool.input.safeParse(args);
  try {
    if (!parsed.success) throw invalidArguments(parsed.error);
    await engine.refreshConfig();
    const client = options.client ?? 'library';
    let out;
    try {
      out = await tool.run(engineForCall(engine, { tool: tool.name, client, batch: randomUUID() }), parsed.data, {
        signal: options.signal ?? new AbortController().signal,
        progress: options.onProgress ?? (() => undefined),
        client: { id: client },
      });
    } finally {
      // what the call recorded is stored before the reply says it happened
      await engine.history.flush();
    }
    if (!out.isError) return { ok: true, data: out.structured, text: out.text };
    const own = out.structured as { code?: ErrorCode; cause?: string };
    return {
      ok: false,
      error: { code: own.code ?? 'internal', message: own.cause ?? out.text, retryable: false },
      data: out.structured,
      text: out.text,
    };
  } catch (e) {
    const err = toHashlineError(e);
    const error: ToolError = {
      code: err.code,
      message: err.message,
      retryable: err.retryable,
      ...(err.details === undefined ? {} : { details: err.details as Record<string, unknown> }),
      ...(err.suggestedNextCall === undefined ? {} : { suggestedNextCall: err.suggestedNextCall }),
    };
    return { ok: false, error, text: `[${err.code}] ${err.message}` };
  }
}
