// Engine configuration: the command line merged over the configuration file's document, validated
// once at start (zod, strict), then frozen. Unsafe switches have loud names and default off.
// What may change while the server runs (the file's settings, reloaded) lives in io/guard/config-file.ts.

import { toolList, type ConfigDoc, type Durability, type FileAccess, type GuardLists } from './config-schema.js';
import { resolveHistory, type HistorySettings } from '../history/history-settings.js';

/** Size limits of one request and one reply (the stdio transport of the MCP SDK drops >10 MiB). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** The most text one read returns before it stops and says how to continue. */
export const MAX_READ_CONTENT_BYTES = 4 * 1024 * 1024;
/** Files in one batch (1-50). */
export const MAX_BATCH_FILES = 50;

export const FAMILIES = ['hashline', 'boundary'] as const;
export type Family = (typeof FAMILIES)[number];

/** @deprecated the configuration document; kept as a name for library users of 0.1. */
export type ConfigFile = ConfigDoc;

export interface EngineConfig {
  /** The first root: relative paths resolve against it. */
  readonly root: string;
  /** Further roots (an MCP client may offer several): absolute paths inside them are admitted. */
  readonly roots?: readonly string[] | undefined;
  readonly allow: readonly string[];
  readonly block: readonly string[];
  readonly readAllow?: readonly string[] | undefined;
  readonly readBlock?: readonly string[] | undefined;
  /** The command line's own lists: a reloaded configuration file's lists are added to these. */
  readonly cliLists: GuardLists;
  readonly tools?: readonly string[] | undefined;
  /** Where the history is kept (`--history` over `[history]`). */
  readonly history: HistorySettings;
  /** How writes reach the disk (`--durability` over `[write] durability`; default `atomic`). */
  readonly durability?: Durability | undefined;
  /**
   * `unrestricted`: paths outside the roots are admitted without an allow entry (blocks, read
   * blocks, the protected configuration, the state directory and hashes still hold). Only a person
   * sets it: `--unrestricted-file-access`, or `[files] access` in the configuration file as read at
   * start (out of every tool's reach); never a tool argument, never a reload.
   */
  readonly access?: FileAccess | undefined;
}

type CliValues = {
  root: string;
  roots?: readonly string[] | undefined;
  allow: string[];
  block: string[];
  readAllow: string[];
  readBlock: string[];
  tools?: string[] | undefined;
  /** `--history sqlite|memory|off|postgres://...` */
  history?: string | undefined;
  /** `--durability atomic|fsync` (checked by the command line). */
  durability?: Durability | undefined;
  /** `--unrestricted-file-access` */
  unrestricted?: boolean | undefined;
};

/** Lists of the command line and of the file, added up (read lists stay unset when neither sets them). */
export function mergeLists(cli: GuardLists, file: Partial<GuardLists>): GuardLists {
  const union = (a: readonly string[] | undefined, b: readonly string[] | undefined) => [...(a ?? []), ...(b ?? [])];
  const optionalUnion = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
    a === undefined && (b === undefined || b.length === 0) ? undefined : union(a, b);
  return {
    allow: union(file.allow, cli.allow),
    block: union(file.block, cli.block),
    readAllow: optionalUnion(file.readAllow, cli.readAllow),
    readBlock: optionalUnion(file.readBlock, cli.readBlock),
  };
}

/** Merges command-line values over a configuration document (lists add up), and freezes the result. */
export function mergeConfig(cli: CliValues, file: ConfigDoc = {}): EngineConfig {
  const cliLists: GuardLists = Object.freeze({
    allow: cli.allow,
    block: cli.block,
    readAllow: cli.readAllow.length > 0 ? cli.readAllow : undefined,
    readBlock: cli.readBlock.length > 0 ? cli.readBlock : undefined,
  });
  const lists = mergeLists(cliLists, { allow: file.allow, block: file.block, readAllow: file.read_allow, readBlock: file.read_block });
  return Object.freeze({
    root: cli.root,
    ...(cli.roots && cli.roots.length > 0 ? { roots: cli.roots } : {}),
    ...lists,
    cliLists,
    tools: cli.tools ?? (file.tools === undefined ? undefined : toolList(file.tools)),
    history: resolveHistory(cli.history, file.history),
    durability: cli.durability ?? file.write?.durability ?? 'atomic',
    access: cli.unrestricted === true ? 'unrestricted' : (file.files?.access ?? 'restricted'),
  });
}
