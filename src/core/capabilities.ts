// What the boundary tools can do with a file, from facts about it: its kind, language and parse
// health. Intrinsic methods follow from the file alone; effective ones are what the configuration
// leaves of them ([files.read] modes, [files.patch] strategies and aider matchers).

import type { AiderMatcher, PatchStrategy, ReadMode, Settings } from './config/config-schema.js';
import { AIDER_MATCHERS } from './config/config-schema.js';
import type { DocumentFormat } from './documents.js';

export type FileKind = 'text' | 'binary' | 'directory' | 'missing';
export type ParseStatus = 'parseable' | 'invalid' | 'unsupported' | 'not_checked';

export interface ParseHealth {
  status: ParseStatus;
  /** ERROR nodes (source) or parse errors (documents). */
  errorCount?: number;
  firstError?: { line: number; column: number; message?: string };
  /** Why the file was not checked (too large). */
  note?: string;
}

export interface FileFacts {
  kind: FileKind;
  /** The grammar's id, when one is registered for the file's extension. */
  language?: string | undefined;
  /** The grammar is installed here. */
  grammarInstalled: boolean;
  documentFormat?: DocumentFormat | undefined;
  parse: ParseHealth;
}

export interface Methods {
  read: ReadMode[];
  patch: PatchStrategy[];
  aiderMatchers: AiderMatcher[];
}

/** What the file supports, configuration aside. */
export function intrinsicMethods(f: FileFacts): Methods & { selectors: DocumentFormat[] } {
  const text = f.kind === 'text';
  const ast = text && (f.documentFormat !== undefined || (f.language !== undefined && f.grammarInstalled)) && f.parse.status !== 'unsupported';
  // AST patches need a grammar for patterns: documents other than JSONC have one; Markdown's tree is not one to rewrite.
  const astPatch = ast && f.language !== undefined && f.grammarInstalled && f.language !== 'markdown';
  return {
    read: [...(ast ? (['ast'] as const) : []), ...(text ? (['text'] as const) : [])],
    patch: [...(astPatch ? (['ast'] as const) : []), ...(text ? (['aider_block'] as const) : [])],
    aiderMatchers: text ? [...AIDER_MATCHERS] : [],
    selectors: text && f.documentFormat !== undefined ? [f.documentFormat] : [],
  };
}

/** The intrinsic methods the configuration leaves. */
export function effectiveMethods(intrinsic: Methods, settings: Settings): Methods {
  const keep = <T extends string>(have: readonly T[], allowed: readonly T[]) => have.filter((m) => allowed.includes(m));
  const patch = keep(intrinsic.patch, settings.patchStrategies);
  return {
    read: keep(intrinsic.read, settings.readModes),
    patch,
    aiderMatchers: patch.includes('aider_block') ? keep(intrinsic.aiderMatchers, settings.aiderMatchers) : [],
  };
}
