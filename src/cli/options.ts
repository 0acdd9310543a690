// Parsing of the shared command-line flags into a validated engine configuration.

import path from 'node:path';
import { parseArgs } from 'node:util';
import { mergeConfig, type EngineConfig } from '../core/config.js';
import { ConfigSource, locateConfig } from '../io/config-file.js';

export const ENGINE_FLAGS = {
  root: { type: 'string' },
  allow: { type: 'string', multiple: true },
  block: { type: 'string', multiple: true },
  'read-allow': { type: 'string', multiple: true },
  'read-block': { type: 'string', multiple: true },
  config: { type: 'string' },
  tools: { type: 'string', multiple: true },
  history: { type: 'string' },
} as const;

/** Parses argv (without the command) with the engine flags plus `extra` flags. */
export function parseEngineArgs<E extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(
  argv: string[],
  extra: E,
  options: { positionals?: boolean } = {},
) {
  const { values, positionals } = parseArgs({ args: argv, options: { ...ENGINE_FLAGS, ...extra }, strict: true, allowPositionals: options.positionals === true });
  const v = values as Record<string, string | string[] | boolean | undefined>;
  const list = (k: string) => (v[k] as string[] | undefined) ?? [];
  const tools = v.tools === undefined ? undefined : list('tools').flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== '');
  const root = path.resolve((v.root as string | undefined) ?? process.cwd());
  // a bad configuration file stops the start here, with its line and the reason
  const configSource = ConfigSource.open(locateConfig(v.config as string | undefined, root));
  const config: EngineConfig = mergeConfig(
    {
      root,
      allow: list('allow').map((p) => path.resolve(p)),
      block: list('block').map((p) => path.resolve(root, p)),
      readAllow: list('read-allow').map((p) => path.resolve(p)),
      readBlock: list('read-block').map((p) => path.resolve(root, p)),
      tools,
      history: v.history as string | undefined,
    },
    configSource.initialDoc,
  );
  return { config, configSource, values: v, positionals };
}
