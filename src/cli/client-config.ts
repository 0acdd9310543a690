// `hashline config <claude-desktop|claude-code|cursor|vscode|http>`: the MCP client configuration
// for the way this copy is installed. A clone, a global or a project install is started as
// `<absolute node> <absolute bin/hashline.mjs>` (a GUI client may not have `node` or `hashline` on its
// PATH); a copy running from npx's cache, which npm may clear, is named by `npx -y hashline` with a
// note saying how to install it for good. `hashline serve` prints the stdio form from here too.

import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageError } from './usage.js';

export const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'http'] as const;
export type ClientName = (typeof CLIENTS)[number];

export type InstallKind = 'clone' | 'global' | 'project' | 'npx';

/** How the copy whose bin is `bin` was installed, read off its path. */
export function installKind(bin: string): InstallKind {
  const parts = bin.split(path.sep);
  if (parts.includes('_npx')) return 'npx';
  const pkg = path.dirname(path.dirname(bin));
  if (existsSync(path.join(pkg, '.git')) || existsSync(path.join(pkg, 'src', 'cli', 'main.ts'))) return 'clone';
  const i = parts.lastIndexOf('node_modules');
  if (i > 0 && parts[i - 1] === 'lib') return 'global';
  return 'project';
}

/** The command and leading arguments that start this copy, and a note for the user (or null). */
export function launcher(bin: string, node = process.execPath): { command: string; args: string[]; note: string | null } {
  const kind = installKind(bin);
  if (kind === 'npx') {
    return {
      command: 'npx',
      args: ['-y', 'hashline'],
      note: `this copy runs from npx's cache (${path.dirname(path.dirname(bin))}), which npm may clear: install it (\`npm install -g hashline\`, or the tarball you ran) and run \`hashline config\` again for a configuration that names it`,
    };
  }
  return { command: node, args: [bin], note: null };
}

/** The bin of the running copy: the script node was started with, links resolved. */
export function runningBin(argv1 = process.argv[1]): string {
  const p = path.resolve(argv1 ?? 'bin/hashline.mjs');
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

export interface ConfigOptions {
  client: ClientName;
  /** The project folder (absolute), or undefined for the client's own placeholder. */
  root?: string | undefined;
  /** For `http`: where `hashline serve` listens, and whether it asks for a token. */
  url?: string;
  token?: boolean;
}

/** The snippet: JSON for the config files, a shell line for Claude Code. */
export function clientConfig(o: ConfigOptions, bin = runningBin()): { text: string; note: string | null } {
  if (o.client === 'http') {
    const server = { type: 'http', url: o.url ?? 'http://127.0.0.1:9000/mcp', ...(o.token === false ? {} : { headers: { Authorization: 'Bearer <token printed by hashline serve>' } }) };
    return { text: JSON.stringify({ mcpServers: { hashline: server } }, null, 2), note: null };
  }
  const { command, args, note } = launcher(bin);
  const workspace = o.client === 'cursor' || o.client === 'vscode' ? '${workspaceFolder}' : undefined;
  const root = o.root ?? (o.client === 'claude-code' ? '.' : workspace ?? '/absolute/path/to/project');
  const all = [...args, 'mcp', '--root', root];
  if (o.client === 'claude-code') return { text: ['claude', 'mcp', 'add', 'hashline', '--', command, ...all].map(shellWord).join(' '), note };
  if (o.client === 'vscode') return { text: JSON.stringify({ servers: { hashline: { type: 'stdio', command, args: all } } }, null, 2), note };
  return { text: JSON.stringify({ mcpServers: { hashline: { command, args: all } } }, null, 2), note };
}

function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** `hashline config CLIENT [--root DIR] [--port N] [--host H]`. */
export async function configCommand(argv: string[]): Promise<void> {
  const { parseFlags } = await import('./options.js');
  const { values, positionals } = parseFlags('config', argv, { root: { type: 'string' }, host: { type: 'string' }, port: { type: 'string' }, 'no-token': { type: 'boolean' } }, true);
  const client = positionals[0];
  if (positionals.length !== 1 || !(CLIENTS as readonly string[]).includes(client!)) {
    throw usageError('config', `config takes one client: ${CLIENTS.join(', ')}${client === undefined ? '' : `, got \`${positionals.join(' ')}\``}`);
  }
  const rootFlag = values.root as string | undefined;
  const cwd = process.cwd();
  // Claude Desktop has no workspace folder: the working directory, unless it is the disk or the home folder
  const here = client === 'claude-desktop' && cwd !== path.parse(cwd).root && cwd !== os.homedir() ? cwd : undefined;
  const root = rootFlag === undefined ? here : path.resolve(rootFlag);
  if (root !== undefined && (root === path.parse(root).root || root === os.homedir())) {
    throw usageError('config', `\`${root}\` is refused as a root (the whole disk or the home folder): give the project folder`);
  }
  const host = (values.host as string | undefined) ?? '127.0.0.1';
  const port = (values.port as string | undefined) ?? '9000';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  const { text, note } = clientConfig({ client: client as ClientName, root, url, token: values['no-token'] !== true });
  process.stdout.write(`${text}\n`);
  if (note) process.stderr.write(`hashline: ${note}\n`);
}
