// The client configurations of README.md work as written: each snippet (marked `<!-- client:NAME -->`)
// is parsed from the README, the command it names is started with the local build in place of
// `npx -y hashline` (bin/hashline.mjs, as the package's bin), and a real MCP client lists the tools
// and reads a file through it. The HTTP snippet's URL is served by `hashline serve`.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const README = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const BIN = path.join(REPO, (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { bin: { hashline: string } }).bin.hashline);

/** The fenced block right after `<!-- client:NAME -->`. */
function snippet(name: string): { lang: string; body: string } {
  const m = new RegExp(`<!-- client:${name} -->\\n\`\`\`(\\w+)\\n([\\s\\S]*?)\\n\`\`\``).exec(README);
  assert.ok(m, `README has no client:${name} snippet`);
  return { lang: m[1]!, body: m[2]! };
}

/** `npx -y hashline ARGS` → the local bin with ARGS; the placeholders of the snippets → `root`. */
function localCommand(command: string, args: string[], root: string): { command: string; args: string[] } {
  assert.equal(command, 'npx');
  assert.deepEqual(args.slice(0, 2), ['-y', 'hashline']);
  const rest = args.slice(2).map((a) => (a === '.' || a === '${workspaceFolder}' || a === '/absolute/path/to/project' ? root : a));
  return { command: process.execPath, args: [BIN, ...rest] };
}

async function readThrough(client: Client): Promise<void> {
  const names = (await client.listTools()).tools.map((t) => t.name);
  for (const n of ['fs_read', 'fs_edit', 'file_hash']) assert.ok(names.includes(n), n);
  const r = (await client.callTool({ name: 'fs_read', arguments: { targets: [{ path: 'hello.txt' }] } })) as CallToolResult;
  const b = r.content[0];
  assert.match(b && b.type === 'text' ? b.text : '', /¶hello\.txt#[0-9A-F]{4}\n1\| hello/);
}

async function stdio(entry: { command: string; args: string[] }, cwd: string): Promise<void> {
  const client = new Client({ name: 'readme-config', version: '0' });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, cwd, stderr: 'ignore' }));
  try {
    await readThrough(client);
  } finally {
    await client.close();
  }
}

test('the shipped bin exists (npm install builds it)', () => {
  assert.ok(existsSync(BIN), `${BIN}: run \`npm run build\``);
});

for (const [name, key] of [
  ['claude-desktop', 'mcpServers'],
  ['cursor', 'mcpServers'],
  ['vscode', 'servers'],
] as const) {
  test(`README ${name} configuration (${key}) starts hashline and serves the project`, async () => {
    const { lang, body } = snippet(name);
    assert.equal(lang, 'json');
    const config = JSON.parse(body) as Record<string, Record<string, { command: string; args: string[]; type?: string }>>;
    assert.deepEqual(Object.keys(config), [key]);
    const entry = config[key]!.hashline!;
    if (name === 'vscode') assert.equal(entry.type, 'stdio');
    const sb = await makeSandbox({ 'hello.txt': 'hello\n' });
    try {
      await stdio(localCommand(entry.command, entry.args, sb.root), sb.outside);
    } finally {
      await sb.cleanup();
    }
  });
}

test('README claude-code command line starts hashline from the project folder', async () => {
  const { lang, body } = snippet('claude-code');
  assert.equal(lang, 'sh');
  const words = body.trim().split(/\s+/);
  assert.deepEqual(words.slice(0, 4), ['claude', 'mcp', 'add', 'hashline']);
  const dash = words.indexOf('--');
  assert.ok(dash > 0);
  const [command, ...args] = words.slice(dash + 1);
  const sb = await makeSandbox({ 'hello.txt': 'hello\n' });
  try {
    // `--root .` is the folder claude runs it from: the project
    const local = localCommand(command!, args, '.');
    await stdio(local, sb.root);
  } finally {
    await sb.cleanup();
  }
});

test('README Streamable HTTP configuration reaches `hashline serve`', async () => {
  const { body } = snippet('http');
  const entry = (JSON.parse(body) as { mcpServers: { hashline: { type: string; url: string; headers: Record<string, string> } } }).mcpServers.hashline;
  assert.equal(entry.type, 'http');
  assert.equal(entry.headers.Authorization, 'Bearer <token>');
  const url = new URL(entry.url);
  assert.equal(url.pathname, '/mcp');
  const sb = await makeSandbox({ 'hello.txt': 'hello\n' });
  // the snippet's host, on a free port (9000 may be taken on a shared machine)
  // no token given: serve makes one and prints it in the configuration
  const child = spawn(process.execPath, [BIN, 'serve', '--root', sb.root, '--host', url.hostname, '--port', '0'], {
    env: { ...process.env, HASHLINE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    const [base, token] = await new Promise<[string, string]>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /serving on (http:\/\/[^\s]+)/.exec(out);
        const t = /"Authorization": "Bearer ([A-Za-z0-9_-]+)"/.exec(out);
        if (m && t) resolve([m[1]!, t[1]!]);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    // the printed configuration is the README's, but for the port and the token
    assert.equal(new URL(base).hostname, url.hostname);
    const client = new Client({ name: 'readme-http', version: '0' });
    const headers = { Authorization: entry.headers.Authorization!.replace('<token>', token) };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${url.pathname}`), { requestInit: { headers } }));
    try {
      await readThrough(client);
    } finally {
      await client.close();
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    await sb.cleanup();
  }
});
