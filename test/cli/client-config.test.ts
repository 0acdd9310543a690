// `hashline config CLIENT`: the configuration names this copy by absolute paths (never npx's cache),
// and the command it names starts a server that the official SDK client lists tools from.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { clientConfig, installKind } from '../../src/cli/client-config.js';
import { REPO } from '../helpers/mcp-client.js';

const BIN = path.join(REPO, 'bin/hashline.mjs');
const run = (args: string[], cwd = REPO) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd });

test('the install is told from the bin path: clone, global, project, npx cache', () => {
  assert.equal(installKind(BIN), 'clone');
  assert.equal(installKind('/usr/local/lib/node_modules/hashline/bin/hashline.mjs'), 'global');
  assert.equal(installKind('/home/u/app/node_modules/hashline/bin/hashline.mjs'), 'project');
  assert.equal(installKind('/home/u/.npm/_npx/1a2b3c/node_modules/hashline/bin/hashline.mjs'), 'npx');
  const npx = clientConfig({ client: 'claude-desktop', root: '/p' }, '/home/u/.npm/_npx/1a2b3c/node_modules/hashline/bin/hashline.mjs');
  assert.doesNotMatch(npx.text, /_npx/, 'the npx cache is never named');
  assert.match(npx.note ?? '', /npm install -g hashline/);
});

test('claude-desktop: the printed configuration starts a server the SDK client lists tools from', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hashline-config-'));
  try {
    const r = run(['config', 'claude-desktop', '--root', root]);
    assert.equal(r.status, 0, r.stderr);
    const server = (JSON.parse(r.stdout) as { mcpServers: { hashline: { command: string; args: string[] } } }).mcpServers.hashline;
    assert.ok(path.isAbsolute(server.command), server.command);
    assert.equal(server.args[0], BIN);
    assert.deepEqual(server.args.slice(1), ['mcp', '--root', root]);
    const client = new Client({ name: 'config-test', version: '0' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'fs_read'));
    } finally {
      await client.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('claude-code, cursor, vscode and http print their own forms; an unknown client is a usage error', () => {
  const code = run(['config', 'claude-code']);
  assert.equal(code.stdout.trim(), `claude mcp add hashline -- ${process.execPath} ${BIN} mcp --root .`);
  const cursor = JSON.parse(run(['config', 'cursor']).stdout) as { mcpServers: { hashline: { args: string[] } } };
  assert.deepEqual(cursor.mcpServers.hashline.args.slice(-2), ['--root', '${workspaceFolder}']);
  const vscode = JSON.parse(run(['config', 'vscode']).stdout) as { servers: { hashline: { type: string } } };
  assert.equal(vscode.servers.hashline.type, 'stdio');
  const http = JSON.parse(run(['config', 'http', '--port', '9123']).stdout) as { mcpServers: { hashline: { url: string; headers?: unknown } } };
  assert.equal(http.mcpServers.hashline.url, 'http://127.0.0.1:9123/mcp');
  assert.ok(http.mcpServers.hashline.headers, 'a token header by default');
  const bad = run(['config', 'emacs']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /config takes one client/);
  const home = run(['config', 'claude-desktop', '--root', os.homedir()]);
  assert.equal(home.status, 2);
});
