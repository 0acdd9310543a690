// `hashline history [PATH] [--json] [--limit N] [--show ID]`: what the durable history holds. With
// PATH, the versions of that file, newest first; without, the root's recent changes. `--show ID`
// prints the content of one version (of PATH, when given). Paths go through the guard: a file the read policy
// refuses is listed without content and `--show` refuses it. `--stores`, `--prune` and `--forget`
// look at the stores of every project (history-stores.ts). Exit 0 ok, 1 refused, 2 usage.

import { escapeControls } from '../core/text/terminal-safe.js';
import type { ErrorCode } from '../core/errors/codes.js';
import { toHashlineError } from '../core/errors/errors.js';
import type { LogEntry } from '../core/history/history-store.js';
import { displayPath } from '../core/config/path-policy.js';
import type { ResolvedPath } from '../io/guard/path-guard.js';
import { createEngine, type Engine } from '../tools/engine.js';
import { ENGINE_FLAGS, engineConfigFor, parseFlags } from './options.js';
import { storesCommand } from './history-stores.js';
import { usageError } from './usage.js';

const HISTORY_FLAGS = {
  json: { type: 'boolean' },
  limit: { type: 'string' },
  show: { type: 'string' },
  stores: { type: 'boolean' },
  prune: { type: 'boolean' },
  'older-than': { type: 'string' },
  'max-bytes': { type: 'string' },
  forget: { type: 'boolean' },
} as const;

/** A refusal with its code: `[code] message` on stderr, or `{ error: { code, message } }` with --json; exit 1. */
function refuse(code: ErrorCode, message: string, asJson: boolean): void {
  if (asJson) process.stdout.write(`${JSON.stringify({ error: { code, message } }, null, 2)}\n`);
  else process.stderr.write(`hashline: [${code}] ${message}\n`);
  process.exitCode = 1;
}

function positiveInt(raw: unknown, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[1-9][0-9]*$/.test(raw)) {
    throw usageError('history', `--${flag} takes a positive integer, not \`${String(raw)}\``);
  }
  return Number(raw);
}

/** The path resolved for reading; when the read policy refuses it, for writing (listed without content). */
async function resolveListed(engine: Engine, input: string): Promise<{ rp: ResolvedPath; readable: boolean }> {
  try {
    return { rp: await engine.guard.resolve(input, 'read'), readable: true };
  } catch (readError) {
    try {
      return { rp: await engine.guard.resolve(input, 'write'), readable: false };
    } catch {
      throw readError;
    }
  }
}

function row(engine: Engine, e: LogEntry, withPath: boolean): string {
  const when = new Date(e.time).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const what = e.op === 'rename' ? `rename ${e.detail === null ? '' : displayPath(e.detail, engine.guard.realRoot)}` : e.op;
  const cols = [String(e.id).padStart(6), when, what.padEnd(8), (e.tag ?? (e.kind === 'bytes' ? 'bin' : '-')).padEnd(4), String(e.size ?? '-').padStart(9)];
  cols.push(`${e.tool ?? '-'} ${e.client ?? '-'}${e.clientName ? ` (${e.clientName})` : ''}`);
  if (withPath) cols.push(displayPath(e.path, engine.guard.realRoot));
  return cols.join('  ');
}

export async function historyCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseFlags('history', argv, { ...ENGINE_FLAGS, ...HISTORY_FLAGS }, true);
  if (positionals.length > 1) throw usageError('history', `history takes at most one PATH, got ${positionals.length}`);
  const stores = values.stores === true;
  const prune = values.prune === true;
  const forget = values.forget === true;
  if ((values['older-than'] !== undefined || values['max-bytes'] !== undefined) && !prune) throw usageError('history', '--older-than and --max-bytes go with --prune');
  if (stores || prune || forget) {
    if (prune && forget) throw usageError('history', '--prune and --forget are separate commands');
    if (forget && stores) throw usageError('history', '--forget takes one project, not --stores');
    if (values.show !== undefined || values.limit !== undefined) throw usageError('history', '--show and --limit do not go with --stores, --prune or --forget');
    if (positionals.length > 0 && !forget) throw usageError('history', `--stores and --prune take no PATH, got \`${positionals[0]}\``);
    return storesCommand({
      stores, prune, forget, json: values.json === true,
      olderThan: values['older-than'] as string | undefined,
      maxBytes: values['max-bytes'] as string | undefined,
      root: values.root as string | undefined,
      project: positionals[0],
    });
  }
  const { config, configSource } = engineConfigFor(values, [(values.root as string | undefined) ?? process.cwd()]);
  const limit = positiveInt(values.limit, 'limit') ?? 50;
  const show = positiveInt(values.show, 'show');
  const json = values.json === true;
  const engine = await createEngine(config, { configSource });
  try {
    const query = engine.history.query;
    if (query === undefined) {
      const s = engine.history.status();
      return refuse('history_unavailable', `no durable history to list (${s.warning ?? `--history ${s.backend}`})`, json);
    }
    let input = positionals[0];
    if (input === undefined && show !== undefined) {
      // the id names its version: its path goes through the guard like a given PATH
      const found = await query.content(show);
      if (found === undefined) return refuse('version_not_found', `no stored content with id ${show}`, json);
      input = found.entry.path;
    }
    if (input === undefined) {
      const feed = await query.feed({ limit });
      process.stdout.write(json ? `${JSON.stringify(feed, null, 2)}\n` : feed.map((e) => `${row(engine, e, true)}\n`).join(''));
      return;
    }
    let listed: { rp: ResolvedPath; readable: boolean };
    try {
      listed = await resolveListed(engine, input);
    } catch (e) {
      const err = toHashlineError(e);
      return refuse(err.code, err.message, json);
    }
    const { rp, readable } = listed;
    if (show !== undefined) {
      if (!readable) return refuse('path_blocked', `\`${rp.display}\` is refused by the read policy: its content is not shown`, json);
      const found = await query.content(show);
      if (found === undefined || found.entry.path !== rp.real) return refuse('version_not_found', `no stored content with id ${show} for \`${rp.display}\``, json);
      // on a terminal, a stored version's control characters are shown escaped (piped: its bytes)
      process.stdout.write(process.stdout.isTTY === true ? escapeControls(Buffer.from(found.bytes).toString('utf8')) : found.bytes);
      return;
    }
    const entries = await query.timeline(rp.real, { limit });
    if (json) {
      process.stdout.write(`${JSON.stringify({ path: rp.display, contentShown: readable, versions: entries }, null, 2)}\n`);
      return;
    }
    if (entries.length === 0) {
      process.stdout.write(`no versions of ${rp.display} in the history\n`);
      return;
    }
    process.stdout.write(`${rp.display}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, newest first${readable ? ' (hashline history PATH --show ID prints one)' : ' (content refused by the read policy)'}\n`);
    process.stdout.write(entries.map((e) => `${row(engine, e, false)}\n`).join(''));
  } finally {
    await engine.history.close();
  }
}
