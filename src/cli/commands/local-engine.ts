// What the commands for people and scripts share: the engine over --root (default: the working
// directory) with the history kept across runs (so `hashline edit` finds the version `hashline
// read` showed, and `hashline rollback` the versions before it), output styling, and exit codes.

import { cliWording } from './cli-wording.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { escapeControls } from '../../core/text/terminal-safe.js';
import { createEngine, engineForCall, type Engine } from '../../tools/engine.js';
import type { CallContext } from '../../tools/tool.js';
import { ENGINE_FLAGS, engineConfigFor, parseFlags, type FlagValues } from '../options.js';

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;

export const LOCAL_FLAGS = { root: ENGINE_FLAGS.root, config: ENGINE_FLAGS.config, history: ENGINE_FLAGS.history, allow: ENGINE_FLAGS.allow, block: ENGINE_FLAGS.block, json: { type: 'boolean' } } as const;

type Spec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;

/** The tool each command runs, as the history's log names it. */
const TOOL_OF: Record<string, string> = { read: 'fs_read', edit: 'fs_edit', hash: 'file_hash', rollback: 'fs_rollback' };

const opened: Engine[] = [];

/** Stores what the commands recorded and closes the history (the dispatcher calls it after a command). */
export async function closeLocalEngines(): Promise<void> {
  for (const e of opened.splice(0)) await e.history.close();
}

/**
 * Parses the command's flags (plus the shared ones) and opens the engine over the root, with the
 * root's durable history (`--history` or `[history]`, default SQLite); what the command records is
 * logged as this command's, client `cli`.
 */
export async function openLocal<E extends Spec>(command: string, argv: string[], extra: E): Promise<{ engine: Engine; values: FlagValues; positionals: string[] }> {
  const { values, positionals } = parseFlags(command, argv, { ...LOCAL_FLAGS, ...extra }, true);
  const root = path.resolve((values.root as string | undefined) ?? process.cwd());
  const { config, configSource } = engineConfigFor(values, [root]);
  const base = await createEngine(config, { configSource, sweepLocks: false });
  opened.push(base);
  const engine = engineForCall(base, { tool: TOOL_OF[command] ?? command, client: 'cli', batch: randomUUID() });
  return { engine, values, positionals };
}

export const oneShot = (): CallContext => ({ signal: new AbortController().signal, progress: () => undefined });

const colour = process.stdout.isTTY === true && (process.env.NO_COLOR ?? '') === '';

/**
 * Text from files for stdout: on a terminal its control characters are shown escaped (a file
 * cannot drive the terminal); piped, the bytes are kept as they are.
 */
export const shown = (text: string): string => (process.stdout.isTTY === true ? escapeControls(text) : text);
const paint = (code: string) => (s: string) => (colour ? `\u001b[${code}m${s}\u001b[0m` : s);
export const style = { header: paint('1;36'), dim: paint('2'), add: paint('32'), del: paint('31'), warn: paint('33'), hunk: paint('36') };

/** A numbered read (`N| text` lines under a ¶ header) with the header and the numbers styled. */
export function styleRead(content: string): string {
  if (!colour) return content;
  return content
    .split('\n')
    .map((l) => (l.startsWith('¶') ? style.header(l) : l.replace(/^(\d+\| )/, (m) => style.dim(m))))
    .join('\n');
}

/** A unified diff with its added and removed lines coloured. */
export function styleDiff(diff: string): string {
  if (!colour) return diff;
  return diff
    .split('\n')
    .map((l) => (l.startsWith('+++') || l.startsWith('---') ? style.dim(l) : l.startsWith('@@') ? style.hunk(l) : l.startsWith('+') ? style.add(l) : l.startsWith('-') ? style.del(l) : l))
    .join('\n');
}

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function warn(text: string): void {
  const said = cliWording(text);
  process.stderr.write(`${style.warn(process.stderr.isTTY === true ? escapeControls(said) : said)}
`);
}

export function json(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
