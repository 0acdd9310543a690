// Attack: read the PostgreSQL credentials of the history store from what hashline echoes when the
// store cannot be reached: the MCP instructions, file_capabilities, stderr, `hashline history`, and
// a --history value of another scheme, `hashline serve`'s start lines, /v1/health and the console. Every credential form (`user:pass@`, `?password=`,
// `?sslpassword=`, any credential-named parameter) is masked everywhere.

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliArgs, CLI_SOURCE, connectMcp, REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

// port 1 on loopback: refused at once, so the store is unreachable
const URL_ = 'postgres://alice:PwUserinfo1@127.0.0.1:1/audit?password=PwQuery2&sslpassword=PwSsl3&passfile=/home/alice/PwFile4&application_name=hashline';
const SECRETS = ['PwUserinfo1', 'PwQuery2', 'PwSsl3', 'PwFile4'];

function assertNoSecret(where: string, text: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} shows ${s}: ${text}`);
}

test('an unreachable store: instructions, file_capabilities and stderr mask every credential', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const s = await connectMcp(['--root', sb.root, '--history', URL_]);
  try {
    const instructions = s.client.getInstructions() ?? '';
    assert.match(instructions, /History: history store postgres:\/\/alice:\*\*\*@127\.0\.0\.1:1\/audit\?password=\*\*\*&sslpassword=\*\*\*&passfile=\*\*\*&application_name=hashline cannot be used/);
    assertNoSecret('instructions', instructions);
    const caps = (await s.call('file_capabilities', { filePaths: ['a.txt'] })) as CallToolResult;
    const capsText = JSON.stringify(caps);
    assert.match(capsText, /in-memory history/);
    assertNoSecret('file_capabilities', capsText);
    assert.match(s.stderr(), /cannot be used/);
    assertNoSecret('stderr', s.stderr());
  } finally {
    await s.close();
    await sb.cleanup();
  }
});

test('the CLI: `hashline history` with the store unreachable, and a --history URL of another scheme', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', `file://${path.join(REPO, 'node_modules/tsx/dist/loader.mjs')}`, CLI_SOURCE, ...args], {
      cwd: sb.root,
      encoding: 'utf8',
      timeout: 60_000,
    });
  try {
    for (const json of [[], ['--json']]) {
      const r = run(['history', '--root', sb.root, '--history', URL_, ...json]);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout + r.stderr, /cannot be used/);
      assertNoSecret(`hashline history ${json.join(' ')}`, r.stdout + r.stderr);
    }
    const other = run(['read', 'a.txt', '--root', sb.root, '--history', 'mysql://alice:PwUserinfo1@h/db?password=PwQuery2']);
    assert.notEqual(other.status, 0, other.stderr);
    assert.match(other.stderr, /--history takes/);
    assertNoSecret('usage error', other.stdout + other.stderr);
  } finally {
    await sb.cleanup();
  }
});

test('`hashline serve`: its start lines, /v1/health and the console’s guard view mask every credential', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const child = spawn(process.execPath, [...cliArgs(), 'serve', '--root', sb.root, '--port', '0', '--no-token', '--history', URL_], {
    cwd: REPO,
    env: { ...process.env, HASHLINE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  try {
    let url: string | undefined;
    for (let i = 0; i < 600 && (url === undefined || !/history:/.test(out)); i++) {
      url = out.match(/serving on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.ok(url, out);
    assert.match(out, /history: memory \(history store postgres:\/\/alice:\*\*\*@/);
    const health = await (await fetch(`${url}/v1/health`)).text();
    const guard = await fetch(`${url}/console/api/guard`, { headers: { host: new URL(url!).host } });
    const guardText = await guard.text();
    assert.equal(guard.status, 200, guardText);
    assert.match(guardText, /in-memory history/);
    for (const [where, text] of [['start lines', out], ['/v1/health', health], ['/console/api/guard', guardText]] as const) assertNoSecret(where, text);
  } finally {
    child.kill('SIGKILL');
    await sb.cleanup();
  }
});
