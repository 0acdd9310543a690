#!/usr/bin/env node
// The `hashline` command: dispatches to a subcommand (loaded on use) and turns errors into exit
// statuses: 2 for usage errors and failed starts of a server, 1 for a refusal of a command for
// people and scripts (read, edit, hash, rollback).

// first: an older Node.js is refused before any other module loads
import './node-check.js';
import { isHashlineError } from '../core/errors/errors.js';
import { VERSION } from '../version.js';
import { helpFor, HELP } from './help.js';
import { isUsageError } from './usage.js';

type Command = (argv: string[]) => Promise<void>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  // loaded on use, so `serve` does not pay for what only `mcp` needs, and the reverse
  mcp: async () => (await import('./mcp-command.js')).mcpCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
  lang: async () => (await import('./lang-command.js')).langCommand,
  read: async () => (await import('./commands/read.js')).readCommand,
  edit: async () => (await import('./commands/edit.js')).editCommand,
  hash: async () => (await import('./commands/hash.js')).hashCommand,
  history: async () => (await import('./history-command.js')).historyCommand,
  rollback: async () => (await import('./commands/rollback.js')).rollbackCommand,
  config: async () => (await import('./client-config.js')).configCommand,
};

/** Servers exit 2 when they cannot start; the commands for people exit 1 when refused. */
const SERVERS = new Set(['mcp', 'serve', 'lang']);
const LOCAL_COMMANDS = new Set(['read', 'edit', 'hash', 'rollback']);

async function printHelp(command: string | undefined): Promise<void> {
  let text = helpFor(command);
  if (command === undefined || command === 'lang') {
    // the grammars installed here (found without loading them)
    const { grammarStatus } = await import('../lang/grammar/registry.js');
    const status = grammarStatus();
    const have = status.filter((g) => g.source !== 'missing').map((g) => g.id);
    const missing = status.filter((g) => g.source === 'missing').map((g) => g.id);
    text += `\nGrammars installed: ${have.join(', ')}\n`;
    if (missing.length > 0) text += `Not installed (hashline lang add NAME): ${missing.join(', ')}\n`;
  }
  if (command === undefined || command === 'history' || command === 'mcp' || command === 'serve') {
    text += (await import('./history-help.js')).historyHelpLine();
  }
  process.stdout.write(text);
}

export async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    await printHelp(cmd === 'help' && rest[0] !== undefined && rest[0] in HELP ? rest[0] : undefined);
    return;
  }
  if (cmd === '--version' || cmd === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    const hint = cmd.startsWith('-') ? '' : cmd.includes('/') || cmd === '.' ? `; to serve the folder \`${cmd}\`, run \`hashline mcp --root ${cmd}\`` : '';
    process.stderr.write(`hashline: unknown command \`${cmd}\`${hint}\n\n${helpFor(undefined)}`);
    process.exitCode = 2;
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    await printHelp(cmd);
    return;
  }
  try {
    try {
      await (await load())(rest);
    } finally {
      // the commands for people store what they recorded before the process ends
      if (LOCAL_COMMANDS.has(cmd)) await (await import('./commands/local-engine.js')).closeLocalEngines();
    }
  } catch (e) {
    let msg = isHashlineError(e) ? `[${e.code}] ${e.message}` : e instanceof Error ? e.message : String(e);
    if (LOCAL_COMMANDS.has(cmd)) msg = (await import('./commands/cli-wording.js')).cliWording(msg);
    process.stderr.write(`hashline: ${msg}\n`);
    process.exit(isUsageError(e) || SERVERS.has(cmd) ? 2 : 1);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`hashline: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
