// A token holder opening many /mcp sessions must not close other clients' sessions (their preview
// receipts go with them): with every slot held by a session in use, a new one is refused with 429
// and a message, and the client at work keeps its session and its receipt; a session idle past the
// idle time may be closed for a new one. Real HTTP on loopback, the official SDK client as victim.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Daemon, startDaemon } from '../http/harness.js';

const TOKEN = 'flood-token';
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '0' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens a session with a bare initialize; its id, or the refusal. */
async function open(d: Daemon): Promise<{ status: number; id: string | null; text: string }> {
  const r = await d.call('/mcp', { method: 'POST', body: INIT, headers: MCP_HEADERS });
  return { status: r.status, id: r.headers.get('mcp-session-id'), text: await r.text() };
}

async function victim(d: Daemon): Promise<Client> {
  const client = new Client({ name: 'victim', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return client;
}

test('past the cap, a new session is refused with 429 while every other is in use; the victim keeps its receipt', async () => {
  const d = await startDaemon({ token: TOKEN, files: { 'a.txt': 'one\ntwo\n' }, limits: { maxMcpSessions: 4, mcpSessionIdleMs: 60_000 } });
  const client = await victim(d);
  try {
    // the victim previews an edit: the receipt lives in its session
    const expectedSha256 = createHash('sha256').update('one\ntwo\n').digest('hex');
    const entry = { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'two\n', replace: 'TWO\n' }], expectedSha256, preview: true };
    const preview = (await client.callTool({ name: 'file_patch', arguments: { files: { 'a.txt': entry } } })) as CallToolResult;
    assert.notEqual(preview.isError, true, JSON.stringify(preview));
    const receipt = (preview.structuredContent as { data: { files: Array<{ previewReceipt?: string }> } }).data.files[0]!.previewReceipt;
    assert.ok(receipt, JSON.stringify(preview.structuredContent));
    const opened: Array<string | null> = [];
    const refused: string[] = [];
    for (let i = 0; i < 64; i++) {
      const r = await open(d);
      if (r.status === 200) opened.push(r.id);
      else {
        assert.equal(r.status, 429, r.text);
        refused.push(r.text);
      }
    }
    assert.equal(opened.length, 3, 'the free slots, no more');
    assert.equal(refused.length, 61);
    assert.match(refused[0]!, /too many MCP sessions: all 4 are in use/);
    // the victim's session and its preview receipt survived the flood
    const applied = (await client.callTool({ name: 'file_patch', arguments: { files: { 'a.txt': { previewReceipt: receipt } } } })) as CallToolResult;
    assert.notEqual(applied.isError, true, JSON.stringify(applied));
    assert.equal((applied.structuredContent as { ok: boolean }).ok, true, JSON.stringify(applied.structuredContent));
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'a.txt'), 'utf8'), 'one\nTWO\n');
  } finally {
    await client.close();
    await d.close();
  }
});

test('a session idle past the idle time gives its slot to a new one', async () => {
  const d = await startDaemon({ token: TOKEN, limits: { maxMcpSessions: 2, mcpSessionIdleMs: 300 } });
  try {
    const first = await open(d);
    const second = await open(d);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal((await open(d)).status, 429, 'both are fresh');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await open(d)).status, 200, 'the least recently used idle session made room');
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const gone = await d.call('/mcp', { method: 'POST', body: ping, headers: { ...MCP_HEADERS, 'mcp-session-id': first.id! } });
    assert.equal(gone.status, 404, 'the oldest idle session was the one closed');
    await gone.text();
  } finally {
    await d.close();
  }
});
