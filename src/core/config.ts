// Engine configuration: validated once at start (zod, strict), then frozen. Unsafe switches have
// loud names and default off.

import { z } from 'zod';

/** Size limits of one request and one reply (the stdio transport of the MCP SDK drops >10 MiB). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** The most text one read returns before it stops and says how to continue. */
export const MAX_READ_CONTENT_BYTES = 4 * 1024 * 1024;
/** Files in one batch (1-50). */
export const MAX_BATCH_FILES = 50;

export const FAMILIES = ['hashline', 'boundary'] as const;
export type Family = (typeof FAMILIES)[number];

export const ConfigFileSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  block: z.array(z.string()).optional(),
  readAllow: z.array(z.string()).optional(),
  readBlock: z.array(z.string()).optional(),
  tools: z.array(z.string()).optional(),
  /** Keep the rollback history in `<root>/.hashline/history.json` across restarts. */
  persistHistory: z.boolean().optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;

export interface EngineConfig {
  readonly root: string;
  readonly allow: readonly string[];
  readonly block: readonly string[];
  readonly readAllow?: readonly string[] | undefined;
  readonly readBlock?: readonly string[] | undefined;
  readonly tools?: readonly string[] | undefined;
  readonly persistHistory: boolean;
}

/** Merges command-line values over a config file (lists add up), and freezes the result. */
export function mergeConfig(
  cli: { root: string; allow: string[]; block: string[]; readAllow: string[]; readBlock: string[]; tools?: string[] | undefined },
  file: ConfigFile = {},
): EngineConfig {
  const union = (a: readonly string[] | undefined, b: readonly string[]) => [...(a ?? []), ...b];
  const optionalUnion = (a: readonly string[] | undefined, b: readonly string[]) =>
    a === undefined && b.length === 0 ? undefined : union(a, b);
  return Object.freeze({
    root: cli.root,
    allow: union(file.allow, cli.allow),
    block: union(file.block, cli.block),
    readAllow: optionalUnion(file.readAllow, cli.readAllow),
    readBlock: optionalUnion(file.readBlock, cli.readBlock),
    tools: cli.tools ?? file.tools,
    persistHistory: file.persistHistory ?? false,
  });
}
