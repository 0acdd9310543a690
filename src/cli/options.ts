// Parsing of the shared command-line flags into a validated engine configuration, the usage
// errors every subcommand reports the same way (exit 2), and the rule for a missing --root.

import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { mergeConfig, type EngineConfig } from '../core/config/config.js';
import { DURABILITY_MODES, type Durability } from '../core/config/config-schema.js';
import { HashlineError } from '../core/errors/errors.js';
import { isWithin } from '../core/config/path-policy.js';
import { ConfigSource, locateConfig } from '../io/guard/config-file.js';
import { usageError } from './usage.js';

export const ENGINE_FLAGS = {
  root: { type: 'string' },
  allow: { type: 'string', multiple: true },
  block: { type: 'string', multiple: true },
  'read-allow': { type: 'string', multiple: true },
  'read-block': { type: 'string', multiple: true },
  config: { type: 'string' },
  tools: { type: 'string', multiple: true },
  history: { type: 'string' },
  durability: { type: 'string' },
  'unrestricted-file-access': { type: 'boolean' },
} as const;

type FlagSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
export type FlagValues = Record<string, string | string[] | boolean | undefined>;

export { isUsageError, usageError } from './usage.js';

/** Parses flags; unknown flags and (unless `positionals`) positional arguments are usage errors. */
export function parseFlags<E extends FlagSpec>(command: string, argv: string[], spec: E, positionals = false): { values: FlagValues; positionals: string[] } {
  let parsed: { values: unknown; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: spec, strict: true, allowPositionals: true });
  } catch (e) {
    throw usageError(command, (e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  if (!positionals && parsed.positionals.length > 0) {
    const first = parsed.positionals[0]!;
    const hint = 'root' in spec ? `; to serve the folder \`${first}\`, give \`--root ${first}\`` : '';
    throw usageError(command, `\`hashline ${command}\` takes no positional argument, got \`${first}\`${hint}`);
  }
  return { values: parsed.values as FlagValues, positionals: parsed.positionals };
}

/** The real path of `dir`, or `dir` itself when it cannot be resolved. */
function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * Why `dir` may not be served unless --root names it (null: it may): it is `/`, the home directory,
 * or a folder that holds the home directory (compared on real paths, so a link to them counts).
 */
export function unsafeRoot(dir: string, home: string = os.homedir()): string | null {
  const real = realOrSelf(path.resolve(dir));
  if (real === '/') return 'is `/`, the whole file system';
  if (home === '') return null;
  const realHome = realOrSelf(path.resolve(home));
  if (real === realHome) return `is the home directory (${dir})`;
  if (isWithin(realHome, real)) return `holds the home directory (${dir})`;
  return null;
}

/** Why the working directory may not serve as the root without --root (null: it may). */
export function unsafeDefaultRoot(cwd: string = process.cwd(), home: string = os.homedir()): string | null {
  const why = unsafeRoot(cwd, home);
  return why === null ? null : `the working directory ${why}`;
}

/** The refusal a server without a root gives to every call (and to its start, where it has no client roots). */
export function noRootError(why: string): HashlineError {
  return new HashlineError(
    'invalid_arguments',
    `no root to serve: hashline was started without --root, the client offered no MCP roots, and ${why}. Restart it with --root DIR (the project folder), or from the project folder.`,
  );
}

/** `--durability atomic|fsync`, checked here so a typo is a usage error (exit 2). */
function durabilityFlag(value: string | undefined): Durability | undefined {
  if (value === undefined) return undefined;
  if ((DURABILITY_MODES as readonly string[]).includes(value)) return value as Durability;
  throw usageError('mcp', `--durability takes ${DURABILITY_MODES.join(' or ')}, got \`${value}\``);
}

/** Why a root the client offers is refused (the reason from `unsafeRoot`), for the log and the refusal. */
export function clientRootRefused(why: string): string {
  return `the client's MCP root ${why}, refused (only --root may name it)`;
}

/** The refusal every call answers when each root the client offered was refused. */
export function noSafeClientRoot(reasons: readonly string[]): HashlineError {
  return new HashlineError(
    'invalid_arguments',
    `no root to serve: hashline was started without --root, and ${reasons.join('; ')}. Restart it with --root DIR (the project folder), or have the client offer the project folder as its root.`,
  );
}

/** The engine configuration for `roots` (the first is the root) from parsed engine flags. */
export function engineConfigFor(values: FlagValues, roots: readonly string[]): { config: EngineConfig; configSource: ConfigSource } {
  const v = values;
  const list = (k: string) => (v[k] as string[] | undefined) ?? [];
  const tools = v.tools === undefined ? undefined : list('tools').flatMap((t) => t.split(',')).map((t) => t.trim()).filter((t) => t !== '');
  const root = path.resolve(roots[0]!);
  // a bad configuration file stops the start here, with its line and the reason
  const configSource = ConfigSource.open(locateConfig(v.config as string | undefined, root));
  const config: EngineConfig = mergeConfig(
    {
      root,
      roots: roots.slice(1).map((r) => path.resolve(r)),
      allow: list('allow').map((p) => path.resolve(p)),
      block: list('block').map((p) => path.resolve(root, p)),
      readAllow: list('read-allow').map((p) => path.resolve(p)),
      readBlock: list('read-block').map((p) => path.resolve(root, p)),
      tools,
      history: v.history as string | undefined,
      durability: durabilityFlag(v.durability as string | undefined),
      unrestricted: v['unrestricted-file-access'] === true,
    },
    configSource.initialDoc,
  );
  return { config, configSource };
}

/**
 * Parses argv (without the command) with the engine flags plus `extra` flags. Without --root the
 * working directory is the root, unless it is `/` or the home directory (refused, naming --root).
 */
export function parseEngineArgs<E extends FlagSpec>(argv: string[], extra: E, command = 'serve') {
  const { values } = parseFlags(command, argv, { ...ENGINE_FLAGS, ...extra });
  const given = values.root as string | undefined;
  if (given === undefined) {
    const why = unsafeDefaultRoot();
    if (why !== null) throw usageError(command, `refusing to serve without --root: ${why}. Give --root DIR`);
  }
  return { ...engineConfigFor(values, [given ?? process.cwd()]), values };
}
