#!/usr/bin/env node
// The `hashline` command: dispatches to a subcommand and turns coded errors into exit status 2.

import { isHashlineError } from '../core/errors.js';
import { VERSION } from '../version.js';

const USAGE = `hashline ${VERSION}: a safe file-system boundary for AI coding agents

Usage:
  hashline mcp   [--root DIR] [--allow PATH]... [--block PATH]... [--read-allow PATH]...
                 [--read-block PATH]... [--config FILE] [--tools LIST]
      Serve the tools over MCP on stdio. --root defaults to the working directory.
      --tools takes tool names and/or the families "hashline" and "boundary" (default: both).
  hashline serve [--root DIR] [--host 127.0.0.1] [--port 9000] [--token-file FILE] [--allowed-host HOST]...
                 [--max-body-bytes N] [--disk-reserve-bytes N] [--max-tar-members N] [--max-tar-bytes N]
                 [--body-idle-timeout-ms N] [--request-timeout-ms N] [--lock-timeout-ms N]
                 (plus the engine flags of mcp)
      Serve the HTTP file API (/v1/fs/file, /v1/fs/tar) and MCP over Streamable HTTP at /mcp.
      The token may also come from HASHLINE_TOKEN; beyond loopback a token is required.
  hashline --help | --version
`;

type Command = (argv: string[]) => Promise<void>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  // loaded on use, so `serve` does not pay for what only `mcp` needs, and the reverse
  mcp: async () => (await import('./mcp-command.js')).mcpCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
};

export async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (cmd === '--version' || cmd === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const load = COMMANDS[cmd];
  if (!load) {
    process.stderr.write(`hashline: unknown command \`${cmd}\`\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  await (await load())(rest);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const msg = isHashlineError(e) ? `[${e.code}] ${e.message}` : e instanceof Error ? e.message : String(e);
  process.stderr.write(`hashline: ${msg}\n`);
  process.exit(2);
});
