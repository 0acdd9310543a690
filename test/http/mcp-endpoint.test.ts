// /mcp over real HTTP: the SDK client's Streamable HTTP transport lists and calls the tools with a
// session; a foreign Origin or Host is refused (DNS rebinding); the bearer token applies.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Daemon, startDaemon } from './harness.js';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('/mcp with a token', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ token: 'tok-123', files: { 'a.txt': 'hello\n' } });
  });
  after(() => d.close());

  test('the SDK client lists and calls a tool over Streamable HTTP', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`), {
      requestInit: { headers: { authorization: 'Bearer tok-123' } },
    });
    const client = new Client({ name: 'hashline-test', version: '0.0.0' });
    await client.connect(transport);
    try {
      assert.ok(transport.sessionId, 'a session id was issued');
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'file_hash'));
      const result = (await client.callTool({ name: 'file_hash', arguments: { filePaths: ['a.txt'] } })) as CallToolResult;
      assert.notEqual(result.isError, true);
      const sha = createHash('sha256').update('hello\n').digest('hex');
      assert.match(JSON.stringify(result.structuredContent), new RegExp(sha));
      const refused = (await client.callTool({ name: 'file_hash', arguments: { filePaths: ['../outside/secret.txt'] } })) as CallToolResult;
      assert.doesNotMatch(JSON.stringify(refused), /TOP SECRET/);
      await transport.terminateSession();
    } finally {
      await client.close();
    }
  });

  test('without the token → 401', async () => {
    const r = await d.call('/mcp', { method: 'POST', body: INIT, headers: MCP_HEADERS, auth: false });
    assert.equal(r.status, 401);
  });

  test('a foreign Origin → 403, even with the token', async () => {
    const r = await d.call('/mcp', { method: 'POST', body: INIT, headers: { ...MCP_HEADERS, origin: 'http://evil.example' } });
    assert.equal(r.status, 403);
    assert.match(await r.text(), /Origin/);
  });

  test('a loopback Origin passes', async () => {
    const r = await d.call('/mcp', { method: 'POST', body: INIT, headers: { ...MCP_HEADERS, origin: 'http://localhost:5173' } });
    assert.equal(r.status, 200);
    assert.ok(r.headers.get('mcp-session-id'));
    await r.body?.cancel();
  });

  test('a foreign Host (DNS rebinding) → 403', async () => {
    // fetch will not send a Host of our choosing; node:http will
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const u = new URL(d.url);
      const req = http.request(
        { host: u.hostname, port: u.port, path: '/mcp', method: 'POST', headers: { ...MCP_HEADERS, host: 'attacker.example:9000', authorization: 'Bearer tok-123' } },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(INIT);
    });
    assert.equal(status, 403);
    assert.match(body, /Host/);
  });

  test('an unknown session → 404; no session and no initialize → 400; bad JSON → 400', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const unknown = await d.call('/mcp', { method: 'POST', body: ping, headers: { ...MCP_HEADERS, 'mcp-session-id': 'nope' } });
    assert.equal(unknown.status, 404);
    const none = await d.call('/mcp', { method: 'POST', body: ping, headers: MCP_HEADERS });
    assert.equal(none.status, 400);
    const bad = await d.call('/mcp', { method: 'POST', body: '{not json', headers: MCP_HEADERS });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as { error: { code: number } }).error.code, -32700);
  });
});

describe('/mcp without a token on loopback', () => {
  test('connects without credentials', async () => {
    const d = await startDaemon();
    const client = new Client({ name: 'hashline-test', version: '0.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
      assert.ok((await client.listTools()).tools.length > 0);
    } finally {
      await client.close();
      await d.close();
    }
  });
});
