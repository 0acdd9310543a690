// The language registry shared by reads (symbols, blocks), structural rewrites and the boundary
// tools: which grammar a path gets, and parsing with it. ast-grep's built-in grammars are always
// there; the @ast-grep/lang-* grammars installed with hashline or by `hashline lang add`
// (grammar-packages.ts) are registered together on first use (ast-grep accepts one registration
// per process), so start-up does not pay for them, and a grammar added later counts from the next start.

import path from 'node:path';
import type { Lang, SgRoot } from '@ast-grep/napi';
import { napi } from './napi.js';
import { HashlineError } from '../../core/errors/errors.js';
import { grammarNotInstalled } from '../../core/messages/lang.js';
import { locateGrammar, loadGrammar, type GrammarSource } from './grammar-packages.js';

export interface LanguageInfo {
  /** The name ast-grep knows the grammar by. */
  readonly id: string;
  /** Extensions without the dot, lower case. */
  readonly extensions: readonly string[];
  /** npm package of a dynamic grammar; undefined for ast-grep's built-ins. */
  readonly pkg?: string;
}

const builtin = (id: `${Lang}`, extensions: string[]): LanguageInfo => ({ id, extensions });
const dynamic = (id: string, extensions: string[]): LanguageInfo => ({ id, extensions, pkg: `@ast-grep/lang-${id}` });

export const LANGUAGES: readonly LanguageInfo[] = Object.freeze([
  builtin('JavaScript', ['js', 'jsx', 'mjs', 'cjs']),
  builtin('TypeScript', ['ts', 'mts', 'cts']),
  builtin('Tsx', ['tsx']),
  builtin('Html', ['html', 'htm', 'xhtml']),
  builtin('Css', ['css', 'scss']),
  dynamic('bash', ['bash', 'bats', 'cgi', 'command', 'env', 'fcgi', 'ksh', 'sh', 'tmux', 'tool', 'zsh']),
  dynamic('c', ['c', 'h']),
  dynamic('cpp', ['cc', 'hpp', 'cpp', 'c++', 'hh', 'cxx', 'cu', 'ino']),
  dynamic('csharp', ['cs']),
  dynamic('dart', ['dart']),
  dynamic('elixir', ['ex', 'exs']),
  dynamic('go', ['go']),
  dynamic('haskell', ['hs', 'lhs']),
  dynamic('java', ['java']),
  dynamic('json', ['json']),
  dynamic('kotlin', ['kt', 'ktm', 'kts']),
  dynamic('lua', ['lua']),
  dynamic('markdown', ['md', 'markdown', 'mdx']),
  dynamic('php', ['php']),
  dynamic('python', ['py', 'py3', 'pyi', 'bzl']),
  dynamic('ruby', ['rb', 'rbw', 'gemspec']),
  dynamic('rust', ['rs']),
  dynamic('scala', ['scala', 'sc', 'sbt']),
  dynamic('sql', ['sql']),
  dynamic('swift', ['swift']),
  dynamic('toml', ['toml']),
  dynamic('yaml', ['yaml', 'yml']),
]);

const byExtension = new Map<string, LanguageInfo>();
for (const l of LANGUAGES) for (const e of l.extensions) byExtension.set(e, l);

/** The grammar for a path by its extension (case-insensitive), or undefined. */
export function languageForPath(p: string): LanguageInfo | undefined {
  const ext = path.extname(p).slice(1).toLowerCase();
  return ext === '' ? undefined : byExtension.get(ext);
}

/** The grammar with this id, or undefined. */
export function languageById(id: string): LanguageInfo | undefined {
  return LANGUAGES.find((l) => l.id.toLowerCase() === id.toLowerCase());
}

let dynamicState: 'pending' | 'ready' | Error = 'pending';

/** Registers every installed dynamic grammar at once (idempotent). */
export function ensureDynamicLanguages(): void {
  if (dynamicState === 'ready') return;
  if (dynamicState instanceof Error) throw dynamicState;
  const regs: Record<string, { libraryPath: string; extensions: string[]; languageSymbol?: string; expandoChar?: string }> = {};
  // The grammar packages announce their prebuild with console.debug, which would corrupt a stdio
  // protocol stream: silence it while the library paths are resolved.
  const debug = console.debug;
  console.debug = () => undefined;
  try {
    // test seam: grammars named here behave as if their package were not installed
    const without = new Set((process.env.HASHLINE_TEST_WITHOUT_GRAMMARS ?? '').split(',').map((s) => s.trim()));
    for (const l of LANGUAGES) {
      if (!l.pkg || without.has(l.id)) continue;
      try {
        const found = locateGrammar(l.pkg);
        if (!found) continue;
        const mod = loadGrammar(found);
        regs[l.id] = {
          libraryPath: mod.libraryPath,
          extensions: mod.extensions,
          ...(mod.languageSymbol ? { languageSymbol: mod.languageSymbol } : {}),
          ...(mod.expandoChar ? { expandoChar: mod.expandoChar } : {}),
        };
      } catch {
        // a grammar without a prebuild for this platform is simply not available
      }
    }
    napi().registerDynamicLanguage(regs);
    dynamicState = 'ready';
    available = new Set([...LANGUAGES.filter((l) => !l.pkg).map((l) => l.id), ...Object.keys(regs)]);
  } catch (e) {
    dynamicState = e as Error;
    throw e;
  } finally {
    console.debug = debug;
  }
}

let available: Set<string> | undefined;

/** True when the grammar can be used on this machine. */
export function isAvailable(lang: LanguageInfo): boolean {
  if (!lang.pkg) return true;
  ensureDynamicLanguages();
  return available?.has(lang.id) ?? false;
}

/** Parses `text` with the grammar. Throws `unsupported_language` when it is not available. */
export function parseWith(lang: LanguageInfo, text: string): SgRoot {
  if (lang.pkg) {
    ensureDynamicLanguages();
    if (!available?.has(lang.id)) throw unsupportedLanguage(lang);
  }
  return napi().parse(lang.id as Lang, text);
}

/** The coded error for a grammar that is not installed here: names the command that installs it. */
export function unsupportedLanguage(lang: LanguageInfo): HashlineError {
  return new HashlineError('unsupported_language', grammarNotInstalled(lang.id), { details: { language: lang.id } });
}

export interface GrammarStatus {
  readonly id: string;
  readonly extensions: readonly string[];
  /** `built-in`: part of ast-grep; `package`: installed with hashline; `user`: added by `hashline lang add`; `missing`. */
  readonly source: 'built-in' | GrammarSource | 'missing';
}

/** Every grammar the registry knows and where it is installed (nothing is loaded). */
export function grammarStatus(): GrammarStatus[] {
  return LANGUAGES.map((l) => ({
    id: l.id,
    extensions: l.extensions,
    source: l.pkg === undefined ? 'built-in' : (locateGrammar(l.pkg)?.source ?? 'missing'),
  }));
}
