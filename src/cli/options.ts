// Parsing of the shared command-line flags into a validated engine configuration.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigFileSchema, mergeConfig, type ConfigFile, type EngineConfig } from '../core/config.js';
import { HashlineError } from '../core/errors.js';

export const ENGINE_FLAGS = {
  root: { type: 'string' },
  allow: { type: 'string', multiple: true },
  block: { type: 'string', multiple: true },
  'read-allow': { type: 'string', multiple: true },
  'read-block': { type: 'string', multiple: true },
  config: { type: 'string' },
  tools: { type: 'string', multiple: true },
} as const;

export function loadConfigFile(file: string | undefined): ConfigFile {
  if (file === undefined) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new HashlineError('invalid_arguments', `cannot read config file \`${file}\`: ${(e as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new HashlineError('invalid_arguments', `invalid config file \`${file}\`: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** Parses argv (without the command) with the engine flags plus `extra` flags. */
export function parseEngineArgs<E extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(argv: string[], extra: E) {
  const { values } = parseArgs({ args: argv, options: { ...ENGINE_FLAGS, ...extra }, strict: true, allowPositionals: false });
  const v = values as Record<string, string | string[] | boolean | undefined>;
  const list = (k: string) => (v[k] as string[] | undefined) ?? [];
  const tools = v.tools === undefined ? undefined : list('tools').flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== '');
  const config: EngineConfig = mergeConfig(
    {
      root: path.resolve((v.root as string | undefined) ?? process.cwd()),
      allow: list('allow').map((p) => path.resolve(p)),
      block: list('block').map((p) => path.resolve((v.root as string | undefined) ?? process.cwd(), p)),
      readAllow: list('read-allow').map((p) => path.resolve(p)),
      readBlock: list('read-block').map((p) => path.resolve((v.root as string | undefined) ?? process.cwd(), p)),
      tools,
    },
    loadConfigFile(v.config as string | undefined),
  );
  return { config, values: v };
}
