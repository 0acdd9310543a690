// Attack: learning the layout outside the root from refusals. A link that leads outside must be
// refused without naming its target, and an operating-system error met by the guard (a name too
// long, a directory this user may not search) must not go out with the absolute paths Node puts in
// its messages: on the MCP face (text and structured error) and the HTTP face (the body of a 4xx
// or 500). Paths in refusals are the caller's own or relative to the root.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, promises as fsp, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asNobody, inRepo } from '../helpers/as-nobody.js';
import { skipOrFail } from '../helpers/needs.js';
import { cliArgs, connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';

const LONG = 'n'.repeat(300);

/** Everything a caller sees of an MCP result: text blocks and structured content. */
const seen = (r: CallToolResult) => `${r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')}\n${JSON.stringify(r.structuredContent ?? {})}`;

/**
 * No absolute path under the sandbox's base in `text`, but the root itself where the spec's wording
 * names it (fs_write's "Files under `{root}` are writable by default").
 */
function assertNoAbsolute(text: string, base: string, what: string): void {
  const shown = text.replaceAll(`Files under \`${path.join(base, 'root')}\``, 'Files under `<root>`');
  assert.ok(!shown.includes(base), `${what} shows an absolute path: ${text}`);
  assert.ok(!/'\/(tmp|proc|etc)\//.test(text), `${what} carries an errno path: ${text}`);
}

describe('over MCP', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox({ 'in.txt': 'in\n' });
    await fsp.symlink(path.join(sb.outside, 'secret.txt'), path.join(sb.root, 'out-link'));
    await fsp.symlink(sb.outside, path.join(sb.root, 'out-dir'));
    mcp = await connectMcp(['--root', sb.root]);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('a link leading outside is refused without naming where it leads', async () => {
    for (const p of ['out-link', 'out-dir/secret.txt', 'out-dir/new.txt']) {
      for (const [tool, args] of [
        ['fs_read', { targets: [{ path: p }] }],
        ['fs_write', { targets: [{ path: p, text: 'x\n' }] }],
      ] as const) {
        const r = await mcp.call(tool, args);
        const all = seen(r);
        assert.match(all, /leads outside the permitted scope/, `${tool} ${p}`);
        assertNoAbsolute(all, sb.base, `${tool} ${p}`);
      }
    }
    assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  });

  test('an errno from the guard (a name too long) comes out coded, without absolute paths', async () => {
    for (const [tool, args] of [
      ['fs_read', { targets: [{ path: LONG }] }],
      ['fs_write', { targets: [{ path: LONG, text: 'x\n' }] }],
      ['fs_edit', { targets: [{ path: LONG, file_hash: '0000', ops: 'delete 1' }] }],
    ] as const) {
      const all = seen(await mcp.call(tool, args));
      assert.match(all, /ENAMETOOLONG/, tool);
      assertNoAbsolute(all, sb.base, tool);
    }
  });
});

describe('over HTTP', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'in.txt': 'in\n' } });
    await fsp.symlink(path.join(d.sandbox.outside, 'secret.txt'), path.join(d.sandbox.root, 'out-link'));
  });
  after(() => d.close());

  test('a link leading outside: 403 symlink_escape, the body names no target', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const r = await d.call(`/v1/fs/file?${q({ path: 'out-link' })}`, method === 'PUT' ? { method, body: 'x' } : {});
      const body = await r.text();
      assert.equal(r.status, 403, body);
      assert.equal(r.headers.get('hashline-error-code'), 'symlink_escape');
      assertNoAbsolute(body, d.sandbox.base, `${method} out-link`);
    }
  });

  test('a name too long: 400 invalid_path, the body carries no absolute path', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const r = await d.call(`/v1/fs/file?${q({ path: LONG })}`, method === 'PUT' ? { method, body: 'x' } : {});
      const body = await r.text();
      assert.equal(r.status, 400, body);
      assert.equal(r.headers.get('hashline-error-code'), 'invalid_path');
      assertNoAbsolute(body, d.sandbox.base, `${method} long name`);
    }
  });
});

describe('a directory the server may not search (EACCES met by the guard), hashline running as nobody', () => {
  const nobody = asNobody();
  const as = 'why' in nobody ? null : nobody;
  let sb: Sandbox;
  before(async () => {
    sb = await makeSandbox({ 'in.txt': 'in\n' });
    chmodSync(sb.base, 0o755);
    chmodSync(sb.root, 0o755);
    mkdirSync(path.join(sb.root, 'private'), { mode: 0o700 });
    writeFileSync(path.join(sb.root, 'private/x.txt'), 'root only\n');
  });
  after(() => sb?.cleanup());

  test('MCP: the refusal is io_error, worded with the path relative to the root', async (t) => {
    if (as === null) return skipOrFail(t, 'why' in nobody ? nobody.why : '');
    const { prefix, repo } = as;
    const transport = new StdioClientTransport({
      command: prefix[0]!,
      args: [...prefix.slice(1), process.execPath, ...cliArgs().map((a) => (path.isAbsolute(a) ? inRepo(as, a) : a)), 'mcp', '--root', sb.root],
      cwd: repo,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'hashline-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      for (const [tool, args] of [
        ['fs_read', { targets: [{ path: 'private/x.txt' }] }],
        ['fs_write', { targets: [{ path: 'private/x.txt', text: 'x\n' }] }],
      ] as const) {
        const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
        const all = seen(r);
        assert.match(all, /cannot resolve `private\/x\.txt`: EACCES/, `${tool}: ${textOf(r)}`);
        assertNoAbsolute(all, sb.base, tool);
      }
    } finally {
      await client.close();
    }
    assert.equal(await fsp.readFile(path.join(sb.root, 'private/x.txt'), 'utf8'), 'root only\n');
  });

  test('HTTP: GET and PUT answer 500 io_error with the path relative to the root', async (t) => {
    if (as === null) return skipOrFail(t, 'why' in nobody ? nobody.why : '');
    const { prefix, repo } = as;
    const child: ChildProcess = spawn(prefix[0]!, [...prefix.slice(1), process.execPath, ...cliArgs().map((a) => (path.isAbsolute(a) ? inRepo(as, a) : a)), 'serve', '--root', sb.root, '--port', '0', '--no-token'], {
      cwd: repo,
      env: { ...process.env, HASHLINE_TOKEN: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      for (const method of ['GET', 'PUT'] as const) {
        const r = await fetch(`${url}/v1/fs/file?${q({ path: 'private/x.txt' })}`, method === 'PUT' ? { method, body: 'x' } : {});
        const body = await r.text();
        assert.equal(r.status, 500, body);
        assert.equal(r.headers.get('hashline-error-code'), 'io_error');
        assert.match(body, /private\/x\.txt/);
        assertNoAbsolute(body, sb.base, `${method} private/x.txt`);
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
    assert.equal(await fsp.readFile(path.join(sb.root, 'private/x.txt'), 'utf8'), 'root only\n');
  });
});
