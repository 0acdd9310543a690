// `hashline lang add|remove`: installs or removes @ast-grep/lang-* packages in the user's grammar
// folder (grammar-packages.ts) with npm, the client every Node installation has. The folder holds
// an ordinary package.json, so `npm ls --prefix DIR` shows what is there.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HashlineError } from '../../core/errors/errors.js';
import { GRAMMAR_VERSIONS, grammarDir, loadGrammar, locateGrammar } from './grammar-packages.js';
import { LANGUAGES, type LanguageInfo } from './registry.js';

export interface GrammarChange {
  readonly id: string;
  /** What happened: installed, removed, or why nothing was done. */
  readonly outcome: 'installed' | 'removed' | 'built-in' | 'already-installed' | 'installed-with-hashline' | 'not-installed';
  readonly dir: string;
}

/** The dynamic grammar named `name` (case-insensitive), or a usage error listing the names. */
export function grammarByName(name: string): LanguageInfo {
  const lang = LANGUAGES.find((l) => l.id.toLowerCase() === name.toLowerCase());
  if (!lang) {
    const names = LANGUAGES.filter((l) => l.pkg).map((l) => l.id);
    throw new HashlineError('invalid_arguments', `unknown grammar \`${name}\`; known: ${names.join(', ')}`);
  }
  return lang;
}

/** How npm is run: the npm that runs this process (npx, npm exec) when known, else `npm` on PATH. */
function npmCommand(): { cmd: string; pre: string[] } {
  const execpath = process.env.npm_execpath;
  if (execpath !== undefined && /npm-cli\.js$/.test(execpath) && existsSync(execpath)) return { cmd: process.execPath, pre: [execpath] };
  return { cmd: 'npm', pre: [] };
}

function runNpm(args: string[], log: (line: string) => void): Promise<void> {
  const { cmd, pre } = npmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', (e) => reject(new HashlineError('io_error', `cannot run npm (${(e as Error).message}); install Node.js with npm, or install the package into the grammar folder by hand`)));
    child.on('close', (code) => {
      if (code === 0) {
        resolve();
        return;
      }
      log(out.trim());
      reject(new HashlineError('io_error', `npm ${args[0]} failed (exit ${code})`));
    });
  });
}

/** Makes the folder an npm project of its own, so npm installs into it and not into a parent. */
function ensureProject(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const manifest = path.join(dir, 'package.json');
  if (!existsSync(manifest)) {
    writeFileSync(manifest, `${JSON.stringify({ name: 'hashline-grammars', private: true, description: 'grammars added by `hashline lang add`' }, null, 2)}\n`);
  }
}

/** Installs the named grammars into the user's grammar folder (those not already usable). */
export async function addGrammars(names: readonly string[], log: (line: string) => void, dir = grammarDir()): Promise<GrammarChange[]> {
  const langs = names.map(grammarByName);
  const changes: GrammarChange[] = [];
  const wanted: LanguageInfo[] = [];
  for (const l of langs) {
    if (!l.pkg) changes.push({ id: l.id, outcome: 'built-in', dir });
    else {
      const found = locateGrammar(l.pkg, dir);
      if (found) changes.push({ id: l.id, outcome: found.source === 'user' ? 'already-installed' : 'installed-with-hashline', dir });
      else wanted.push(l);
    }
  }
  if (wanted.length > 0) {
    ensureProject(dir);
    const specs = wanted.map((l) => `${l.pkg}@${GRAMMAR_VERSIONS[l.id] ?? 'latest'}`);
    log(`installing ${specs.join(' ')} into ${dir}`);
    await runNpm(['install', '--prefix', dir, '--no-audit', '--no-fund', '--save', ...specs], log);
    for (const l of wanted) {
      const found = locateGrammar(l.pkg!, dir);
      if (!found) throw new HashlineError('io_error', `npm reported success but ${l.pkg} is not in ${dir}`);
      const mod = loadGrammar(found);
      if (!existsSync(mod.libraryPath)) throw new HashlineError('io_error', `${l.pkg} has no parser for this platform (${process.platform} ${process.arch})`);
      changes.push({ id: l.id, outcome: 'installed', dir });
    }
  }
  return changes;
}

/** Removes the named grammars from the user's grammar folder. */
export async function removeGrammars(names: readonly string[], log: (line: string) => void, dir = grammarDir()): Promise<GrammarChange[]> {
  const langs = names.map(grammarByName);
  const changes: GrammarChange[] = [];
  const present: LanguageInfo[] = [];
  for (const l of langs) {
    const found = l.pkg ? locateGrammar(l.pkg, dir) : undefined;
    if (!l.pkg) changes.push({ id: l.id, outcome: 'built-in', dir });
    else if (found?.source === 'user') present.push(l);
    else changes.push({ id: l.id, outcome: found ? 'installed-with-hashline' : 'not-installed', dir });
  }
  if (present.length > 0) {
    await runNpm(['uninstall', '--prefix', dir, '--no-audit', '--no-fund', ...present.map((l) => l.pkg!)], log);
    for (const l of present) changes.push({ id: l.id, outcome: 'removed', dir });
  }
  return changes;
}
