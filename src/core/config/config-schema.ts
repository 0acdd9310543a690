// The configuration file's one strict schema for the whole product (TOML; a 0.1 JSON file is still
// read and converted), and the settings it resolves to with every default filled in. Sections are
// added here by the features that need them; unknown keys are refused.

import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import * as z from 'zod';
import { assertPathForm } from './path-policy.js';
import { SQL_POLICIES, type SqlDefaults } from '../sql/sql-selection.js';

export const READ_MODES = ['ast', 'text'] as const;
export type ReadMode = (typeof READ_MODES)[number];
export const PATCH_STRATEGIES = ['ast', 'aider_block'] as const;
export type PatchStrategy = (typeof PATCH_STRATEGIES)[number];
export const AIDER_MATCHERS = ['exact', 'whitespace', 'relative-indentation', 'diff-match-patch'] as const;
export type AiderMatcher = (typeof AIDER_MATCHERS)[number];
export const CHOWN_POLICIES = ['same', 'any'] as const;
/** `restricted` (default): paths outside the roots need an allow entry; `unrestricted`: any path, blocks kept. */
export const FILE_ACCESS = ['restricted', 'unrestricted'] as const;
export type FileAccess = (typeof FILE_ACCESS)[number];
export const HISTORY_STORES = ['sqlite', 'memory', 'off', 'postgres'] as const;
export type HistoryStoreKind = (typeof HISTORY_STORES)[number];
export type ChownPolicy = (typeof CHOWN_POLICIES)[number];
/** `atomic`: temp file + rename, never torn by a process crash; `fsync`: also flushes file and directory (power loss). */
export const DURABILITY_MODES = ['atomic', 'fsync'] as const;
export type Durability = (typeof DURABILITY_MODES)[number];
export const FORMAT_MODES = ['stdout', 'in_place'] as const;
export type FormatMode = (typeof FORMAT_MODES)[number];
export const DEFAULT_FORMAT_TIMEOUT_MS = 20_000;

/**
 * The schemas, built on first use: a start without a configuration file builds none (building
 * them costs a few milliseconds of zod at every start otherwise).
 */
function buildSchemas() {
  const glob = z
    .string()
    .min(1)
    .superRefine((g, ctx) => {
      try {
        picomatch(g);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `bad glob \`${g}\`: ${(e as Error).message}` });
      }
    });

  /** One external formatter: the files it takes (globs relative to the root), its argv (no shell) and how it returns its output. */
  const Formatter = z.strictObject({
    name: z.string().min(1).max(64).optional(),
    globs: z.array(glob).min(1).max(64),
    /** argv: the program, then its arguments; `{file}`, `{source}` and `{root}` are substituted. */
    command: z.array(z.string().min(1)).min(1).max(64),
    mode: z.enum(FORMAT_MODES),
    enabled: z.boolean().optional(),
    timeout_ms: z.number().int().min(100).max(600_000).optional(),
  });

  const pathEntry = z.string().superRefine((p, ctx) => {
    try {
      assertPathForm(p);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
    }
  });
  const pathList = z.array(pathEntry).max(1024);
  const uniqueList = <T extends readonly [string, ...string[]]>(values: T) =>
    z.array(z.enum(values)).max(values.length).refine((v) => new Set(v).size === v.length, 'values must not repeat');

  const config = z.strictObject({
    /** Paths outside the root admitted exactly (not their subtrees). */
    allow: pathList.optional(),
    /** Paths refused with everything under them, even inside the root. */
    block: pathList.optional(),
    /** When given, these replace allow/block for reads. */
    read_allow: pathList.optional(),
    read_block: pathList.optional(),
    /** Tool names and/or profiles served (read at start): a list, or one string (`"hashline"`, `"fs_read, fs_edit"`). */
    tools: z.union([z.string().min(1), z.array(z.string().min(1)).max(64)]).optional(),
    safety: z
      .strictObject({
        /** Changing an existing file needs a fresh expectedSha256 (default true). */
        require_hash: z.boolean().optional(),
      })
      .optional(),
    files: z
      .strictObject({
        /** Read at start only: a person approves it (the file is out of every tool's reach) and restarts. */
        access: z.enum(FILE_ACCESS).optional(),
        read: z.strictObject({ modes: uniqueList(READ_MODES).optional() }).optional(),
        patch: z
          .strictObject({
            strategies: uniqueList(PATCH_STRATEGIES).optional(),
            aider_matchers: uniqueList(AIDER_MATCHERS).optional(),
          })
          .optional(),
        chattr: z.strictObject({ chown: z.enum(CHOWN_POLICIES).optional() }).optional(),
        /** Tools may write inside `.git`, `.hg` and `.svn` (default false: those folders are read-only). */
        write_vcs_dirs: z.boolean().optional(),
      })
      .optional(),
    /** How writes reach the disk (read at start). */
    write: z.strictObject({ durability: z.enum(DURABILITY_MODES).optional() }).optional(),
    /** Where the history is kept and for how long (read at start). */
    history: z
      .strictObject({
        /** 0.1's switch: true is `store = "sqlite"`, false is `store = "memory"` (when `store` is not given). */
        persist: z.boolean().optional(),
        /** `sqlite` (default), `memory`, `off`, or `postgres` (with `url`). */
        store: z.enum(HISTORY_STORES).optional(),
        /** A PostgreSQL URL (`postgres://user@host/db`); implies `store = "postgres"`. */
        url: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
        /** Log entries older than this many days are removed (0: kept). */
        max_age_days: z.number().nonnegative().max(36500).optional(),
        /** Per file, log entries beyond the newest this many are removed (0: no limit). */
        max_versions: z.number().int().nonnegative().optional(),
        /** The oldest entries are removed until the root's stored content fits in this many bytes (0: no limit). */
        max_bytes: z.number().int().nonnegative().optional(),
        /** Larger content is not stored (binary included). */
        max_version_bytes: z.number().int().nonnegative().max(1024 * 1024 * 1024).optional(),
      })
      .optional(),
    /** External formatters run when file_patch commits (off unless enabled). */
    format: z
      .strictObject({
        enabled: z.boolean().optional(),
        formatters: z.array(Formatter).max(64).optional(),
      })
      .optional(),
    /** Defaults of file_patch's per-file `sql` selection (a dialect alone does not ask for validation). */
    sql: z
      .strictObject({
        policy: z.enum(SQL_POLICIES).optional(),
        dialect: z.string().min(1).max(64).optional(),
        /** `"18"`, or a bare integer (`version = 18`). */
        version: z.union([z.string().min(1).max(64), z.number().int().nonnegative()]).optional(),
        variant: z.string().min(1).max(64).optional(),
      })
      .optional(),
  });

  /** The 0.1 JSON configuration (camelCase keys). */
  const legacy = z.strictObject({
    allow: z.array(z.string()).optional(),
    block: z.array(z.string()).optional(),
    readAllow: z.array(z.string()).optional(),
    readBlock: z.array(z.string()).optional(),
    tools: z.array(z.string()).optional(),
    persistHistory: z.boolean().optional(),
  });
  return { config, legacy };
}

let schemas: ReturnType<typeof buildSchemas> | undefined;

/** The configuration file's strict schema. */
export function configSchema(): ReturnType<typeof buildSchemas>['config'] {
  return (schemas ??= buildSchemas()).config;
}

/** The 0.1 JSON configuration's schema (camelCase keys). */
export function legacyConfigSchema(): ReturnType<typeof buildSchemas>['legacy'] {
  return (schemas ??= buildSchemas()).legacy;
}

export type ConfigDoc = z.infer<ReturnType<typeof configSchema>>;
export type LegacyConfig = z.infer<ReturnType<typeof legacyConfigSchema>>;


/** A 0.1 JSON configuration in the current schema's terms (same meaning, key for key). */
export function fromLegacy(legacy: LegacyConfig): ConfigDoc {
  const doc: ConfigDoc = {};
  if (legacy.allow) doc.allow = legacy.allow;
  if (legacy.block) doc.block = legacy.block;
  if (legacy.readAllow) doc.read_allow = legacy.readAllow;
  if (legacy.readBlock) doc.read_block = legacy.readBlock;
  if (legacy.tools) doc.tools = legacy.tools;
  if (legacy.persistHistory !== undefined) doc.history = { persist: legacy.persistHistory };
  return doc;
}

export interface GuardLists {
  readonly allow: readonly string[];
  readonly block: readonly string[];
  readonly readAllow?: readonly string[] | undefined;
  readonly readBlock?: readonly string[] | undefined;
}

export interface FormatterSpec {
  readonly name: string;
  readonly globs: readonly string[];
  readonly command: readonly string[];
  readonly mode: FormatMode;
  readonly timeoutMs: number;
}

/** The configuration with every default filled in, as tools read it. Frozen. */
export interface Settings {
  /** The file's own guard lists (the command line's are added by the engine). */
  readonly lists: GuardLists;
  readonly tools: readonly string[] | undefined;
  readonly requireHash: boolean;
  readonly readModes: readonly ReadMode[];
  readonly patchStrategies: readonly PatchStrategy[];
  readonly aiderMatchers: readonly AiderMatcher[];
  readonly chown: ChownPolicy;
  /** `[files] write_vcs_dirs`: writes inside `.git`, `.hg`, `.svn` are admitted (default false). */
  readonly writeVcsDirs: boolean;
  readonly persistHistory: boolean | undefined;
  /** The formatters in force, in order (empty unless [format] enabled = true). */
  readonly formatters: readonly FormatterSpec[];
  readonly sql: Readonly<SqlDefaults>;
}

/** `tools` as a list: a string is one name, or several separated by commas. */
export function toolList(tools: string | readonly string[]): string[] {
  return (typeof tools === 'string' ? tools.split(',') : [...tools]).map((t) => t.trim()).filter((t) => t !== '');
}

export function resolveSettings(doc: ConfigDoc): Settings {
  const freeze = <T>(v: T): T => Object.freeze(v);
  return freeze({
    lists: freeze({
      allow: freeze([...(doc.allow ?? [])]),
      block: freeze([...(doc.block ?? [])]),
      readAllow: doc.read_allow ? freeze([...doc.read_allow]) : undefined,
      readBlock: doc.read_block ? freeze([...doc.read_block]) : undefined,
    }),
    tools: doc.tools === undefined ? undefined : freeze(toolList(doc.tools)),
    requireHash: doc.safety?.require_hash ?? true,
    readModes: freeze([...(doc.files?.read?.modes ?? READ_MODES)]),
    patchStrategies: freeze([...(doc.files?.patch?.strategies ?? PATCH_STRATEGIES)]),
    aiderMatchers: freeze([...(doc.files?.patch?.aider_matchers ?? AIDER_MATCHERS)]),
    chown: doc.files?.chattr?.chown ?? 'same',
    writeVcsDirs: doc.files?.write_vcs_dirs ?? false,
    persistHistory: doc.history?.persist,
    formatters: freeze(
      doc.format?.enabled === true
        ? (doc.format.formatters ?? [])
            .filter((f) => f.enabled !== false)
            .map((f) =>
              freeze({
                name: f.name ?? f.command[0]!,
                globs: freeze([...f.globs]),
                command: freeze([...f.command]),
                mode: f.mode,
                timeoutMs: f.timeout_ms ?? DEFAULT_FORMAT_TIMEOUT_MS,
              }),
            )
        : [],
    ),
    sql: freeze({
      policy: doc.sql?.policy,
      dialect: doc.sql?.dialect,
      version: doc.sql?.version === undefined ? undefined : String(doc.sql.version),
      variant: doc.sql?.variant,
    }),
  });
}

/** A stable hash of what the settings mean (not of the file's bytes: comments and order do not count). */
export function settingsIdentity(settings: Settings): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
    }
    return v;
  };
  return createHash('sha256').update(JSON.stringify(canonical(settings))).digest('hex').slice(0, 16);
}
