// What `tools/list` says of a tool: name, title, description, the JSON Schemas of its input and
// output (hashline tools gain an optional coded `error`; boundary tools the { ok, data | error }
// envelope) and its annotations. A pure function of the tool's definition, so the bundled CLI
// computes every entry when it is built (scripts/bundle-cli.mjs defines HASHLINE_TOOL_LISTING) and a
// start only looks them up; anything else (the compiled modules, a tool not in the registry) is
// converted here at run time.

import * as z from 'zod';
import type { ToolDefinition } from '../tools/tool.js';
import { compactOutputSchema, listedInputSchema } from '../tools/schema-compact.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object' };
  outputSchema: { type: 'object' };
  annotations: Record<string, unknown>;
}

export const ErrorShape = z.object({
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

/** The coded error as listed: its two fields a caller always reads (the others are allowed, not spelled out). */
const LISTED_ERROR: JsonSchema = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } };

/** How many levels of a tool's own result the listed output schema spells out (`results[].path` is 3). */
const OUTPUT_DEPTH = 1;

/** The output schema a client sees: hashline tools gain an optional `error`; boundary tools the envelope. */
function outputSchemaFor(tool: ToolDefinition): JsonSchema {
  const own = compactOutputSchema(jsonSchema(tool.output, 'output'), OUTPUT_DEPTH) as JsonSchema;
  const error = LISTED_ERROR;
  if (tool.family === 'boundary') {
    return {
      type: 'object',
      properties: { ok: { type: 'boolean' }, data: own, error },
      required: ['ok'],
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

/** The `tools/list` entry of `tool`, converted from its zod schemas now. */
export function toolListing(tool: ToolDefinition): ToolListing {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: listedInputSchema(tool.input) as { type: 'object' },
    outputSchema: outputSchemaFor(tool) as { type: 'object' },
    // the title is said once, at the top (annotations.title is its older place)
    annotations: { ...tool.annotations },
  };
}

/** The entries of the registry's tools as JSON, keyed by name (what the bundler defines). */
export function listingJson(tools: readonly ToolDefinition[]): string {
  return JSON.stringify(Object.fromEntries(tools.map((t) => [t.name, toolListing(t)])));
}

declare const HASHLINE_TOOL_LISTING: string | undefined;
let built: Record<string, ToolListing> | undefined;

/**
 * The entries of `tools`: taken from the listing made when the CLI was bundled for a tool of the
 * registry (`registry`: the same definitions it was made from), converted now otherwise.
 */
export function listTools(tools: readonly ToolDefinition[], registry: readonly ToolDefinition[]): ToolListing[] {
  return tools.map((t) => (registry.includes(t) ? bundledListing(t.name) : undefined) ?? toolListing(t));
}

/** The entry of the registry's tool `name` made when the CLI was bundled; undefined when not bundled. */
export function bundledListing(name: string): ToolListing | undefined {
  if (typeof HASHLINE_TOOL_LISTING === 'string') built ??= JSON.parse(HASHLINE_TOOL_LISTING) as Record<string, ToolListing>;
  return built?.[name];
}
