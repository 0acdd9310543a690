// What a tool is, independent of the face that serves it: a name, a family, a description a model
// reads (with one example and what to do after an error), strict zod input and output schemas,
// MCP annotations, and a `run` that takes typed input and returns typed output.

import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { Family } from '../core/config/config.js';
import type { Engine } from './engine.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallContext {
  /** Aborted when the client cancels the request or the server shuts down. */
  signal: AbortSignal;
  /** Reports progress when the client asked for it; a no-op otherwise. */
  progress: (p: Progress) => void;
  /** Who is calling, for the history's log (`mcp-stdio:<id>`, `mcp-http:<session id>`, `cli` ...). */
  client?: { readonly id: string; readonly name?: string | undefined } | undefined;
  /**
   * The MCP session the call belongs to (Streamable HTTP: the transport's session id); undefined:
   * this process's own session (stdio serves one client per process).
   */
  sessionId?: string | undefined;
}

/** The session of a call that names none: one per process. */
export const PROCESS_SESSION_ID = randomUUID();

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: false;
}

export interface ToolOutput<O> {
  /** Matches the tool's output schema. */
  structured: O;
  /** What the model reads. */
  text: string;
  isError?: boolean;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly family: Family;
  readonly title: string;
  /**
   * What a model reads on every turn (hosts list it with the input schema), so it stays short:
   * what the tool does, the rule that causes most refusals, one short example, what to do after an
   * error. The long form is `guide`.
   */
  readonly description: string;
  /** The long form of the description (every rule, each error's next call): docs/tools/NAME.md, never listed. */
  readonly guide?: string;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  run(engine: Engine, args: z.infer<I>, call: CallContext): Promise<ToolOutput<z.infer<O>>>;
}

/** Identity with inference, so each tool file states its types once. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
