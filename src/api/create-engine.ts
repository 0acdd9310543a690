// The library's way to build an engine: `createEngine({ root })`, with the lists, the configuration
// file and the kept history as options, the way the command line builds it. The engine's own
// constructor (tools/engine.ts) takes a merged, validated configuration; both forms are accepted.

import path from 'node:path';
import { mergeConfig, type EngineConfig } from '../core/config/config.js';
import type { Durability } from '../core/config/config-schema.js';
import { ConfigSource, locateConfig } from '../io/guard/config-file.js';
import { createEngine as createEngineFromConfig, type Engine, type EngineOptions } from '../tools/engine.js';

export interface CreateEngineOptions {
  /** The project folder: every path is relative to it or absolute inside it. */
  root: string;
  /** Further roots: absolute paths inside them are admitted too. */
  roots?: readonly string[];
  /** Files outside the roots that may be read and written (exact paths). */
  allow?: readonly string[];
  /** Paths refused with everything under them, even inside the root (relative to the root or absolute). */
  block?: readonly string[];
  /** When given, these replace `allow` / `block` for reads. */
  readAllow?: readonly string[];
  readBlock?: readonly string[];
  /**
   * The configuration file (TOML): a path, or `false` for none. Default: `hashline.toml` at the
   * root when there is one (or the file named by `HASHLINE_CONFIG`), as the command line does.
   */
  config?: string | false;
  /**
   * Where versions are kept: `sqlite` (default: one private file per root under the state
   * directory, shared by every process of the root), `memory`, `off`, or a `postgres://` URL.
   * Overrides the configuration file's `[history]`.
   */
  history?: string;
  /** The parent of the SQLite history's folder (default `$XDG_STATE_HOME`, else `~/.local/state`). */
  stateDir?: string;
  /**
   * `atomic` (default): temp file + rename, never torn by a crash of the process; `fsync`: also
   * flushes file and directory, for hosts that must survive a power loss. Overrides `[write] durability`.
   */
  durability?: Durability;
}

function isEngineConfig(value: CreateEngineOptions | EngineConfig): value is EngineConfig {
  return 'cliLists' in value;
}

/** Builds the engine every tool call runs on: one guard, one lock manager, one history (close it with `engine.history.close()`). */
export function createEngine(options: CreateEngineOptions): Promise<Engine>;
/** Builds the engine from a configuration merged by `mergeConfig` (the form the command line uses). */
export function createEngine(config: EngineConfig, options?: EngineOptions): Promise<Engine>;
export async function createEngine(arg: CreateEngineOptions | EngineConfig, internal?: EngineOptions): Promise<Engine> {
  if (isEngineConfig(arg)) return createEngineFromConfig(arg, internal);
  const root = path.resolve(arg.root);
  const configSource = arg.config === false ? ConfigSource.fixed() : ConfigSource.open(locateConfig(arg.config, root));
  const config = mergeConfig(
    {
      root,
      roots: (arg.roots ?? []).map((r) => path.resolve(r)),
      allow: (arg.allow ?? []).map((p) => path.resolve(p)),
      block: (arg.block ?? []).map((p) => path.resolve(root, p)),
      readAllow: (arg.readAllow ?? []).map((p) => path.resolve(p)),
      readBlock: (arg.readBlock ?? []).map((p) => path.resolve(root, p)),
      history: arg.history,
      durability: arg.durability,
    },
    configSource.initialDoc,
  );
  return createEngineFromConfig(config, { configSource, ...(arg.stateDir === undefined ? {} : { stateDir: arg.stateDir }) });
}
