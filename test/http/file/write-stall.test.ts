// A client that declares a body and stalls must not block anyone. A raw PUT /v1/fs/file that
// declares 100 bytes, sends 5 and goes quiet used to hold the path's lock while its body streamed:
// a second PUT of the same file, and an MCP fs_write over /mcp, hung for as long as the stall
// lasted. Now the body is spooled before the lock (which is held only for the commit), the body
// has an idle clock and a total clock (408, connection closed, nothing written), and a write
// waits for a lock held in this process no longer than its deadline (503 `lock_timeout`).
// Clocks are set short here; each client call has its own deadline so a regression fails
// instead of hanging.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { type Daemon, q, startDaemon } from '../harness.js';

const CLIENT_DEADLINE_MS = 8000;

interface RawRequest {
  /** Everything the server sent back so far. */
  received(): string;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  socket: net.Socket;
}

/** Sends a request head declaring `declared` body bytes, then `sent` of them, then nothing. */
function stalledRequest(d: Daemon, method: string, target: string, declared: number, sent: string, headers: Record<string, string> = {}): RawRequest {
  const { hostname, port } = new URL(d.url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: ${declared}\r\n${extra}\r\n${sent}`);
  return { received: () => received, closed, socket };
}

async function tempFiles(dir: string): Promise<string[]> {
  return ((await fsp.readdir(dir, { recursive: true })) as string[]).filter((f) => f.includes(TEMP_MARKER));
}

async function mcpClient(d: Daemon): Promise<Client> {
  const client = new Client({ name: 'hashline-test', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${d.url}/mcp`)));
  return client;
}

describe('a stalled PUT blocks no one', () => {
  let d: Daemon;
  let client: Client;
  before(async () => {
    // a long idle clock: the stall lasts through the whole test
    d = await startDaemon({ files: { 'shared.txt': 'original\n' }, limits: { bodyIdleTimeoutMs: 60_000 } });
    client = await mcpClient(d);
  });
  after(async () => {
    await client.close();
    await d.close();
  });

  test('a second PUT of the same file and an fs_write over /mcp both land while the stall lasts', async () => {
    const stalled = stalledRequest(d, 'PUT', `/v1/fs/file?${q({ path: 'shared.txt' })}`, 100, 'hello');
    try {
      // the stalled body is being written: its temporary file is there
      for (let i = 0; i < 500 && (await tempFiles(d.sandbox.root)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal((await tempFiles(d.sandbox.root)).length, 1);
      const second = await d.call(`/v1/fs/file?${q({ path: 'shared.txt' })}`, { method: 'PUT', body: 'second\n', signal: AbortSignal.timeout(CLIENT_DEADLINE_MS) });
      assert.equal(second.status, 204, await second.text());
      assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'shared.txt'), 'utf8'), 'second\n');
      const written = (await client.callTool({ name: 'fs_write', arguments: { targets: [{ path: 'shared.txt', text: 'third\n' }] } }, undefined, {
        timeout: CLIENT_DEADLINE_MS,
      })) as CallToolResult;
      assert.notEqual(written.isError, true, JSON.stringify(written.content));
      assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'shared.txt'), 'utf8'), 'third\n');
      // the stalled request is still waiting for its body: nothing was answered, nothing of it written
      assert.equal(stalled.received(), '');
      assert.equal((await tempFiles(d.sandbox.root)).length, 1);
    } finally {
      stalled.socket.destroy();
      await stalled.closed;
    }
    for (let i = 0; i < 500 && (await tempFiles(d.sandbox.root)).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'shared.txt'), 'utf8'), 'third\n');
    assert.deepEqual(await tempFiles(d.sandbox.root), []);
  });
});

describe('the body clocks', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'shared.txt': 'original\n' }, limits: { bodyIdleTimeoutMs: 300, requestTimeoutMs: 1500 } });
  });
  after(() => d.close());

  const ROUTES: Array<[string, string, string]> = [
    ['PUT /v1/fs/file', 'PUT', `/v1/fs/file?${q({ path: 'shared.txt' })}`],
    ['PUT /v1/fs/tar', 'PUT', '/v1/fs/tar?path=PLACEHOLDER'],
    ['POST /mcp', 'POST', '/mcp'],
  ];
  for (const [name, method, target] of ROUTES) {
    test(`${name}: a body that stalls → 408, the connection closed, nothing written`, async () => {
      const url = target.replace('PLACEHOLDER', encodeURIComponent(path.join(d.sandbox.root, 'x')));
      const headers: Record<string, string> = name === 'POST /mcp' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {};
      const stalled = stalledRequest(d, method, url, 100, name === 'POST /mcp' ? '{"jso' : 'hello', headers);
      await Promise.race([stalled.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the server never closed the stalled connection')), CLIENT_DEADLINE_MS))]);
      const reply = stalled.received();
      assert.match(reply, /^HTTP\/1\.1 408 /);
      assert.match(reply, /\r\nconnection: close\r\n/i);
      assert.match(reply, /\r\nhashline-error-code: request_timeout\r\n/i);
      assert.ok(reply.endsWith('request body stalled: no bytes arrived for 300 ms'), reply);
      assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'shared.txt'), 'utf8'), 'original\n');
      assert.deepEqual(await fsp.readdir(d.sandbox.root), ['shared.txt']);
    });
  }

  test('a body that trickles in slower than the total clock → 408, nothing written', async () => {
    const stalled = stalledRequest(d, 'PUT', `/v1/fs/file?${q({ path: 'shared.txt' })}`, 100, 'h');
    // one byte every 30 ms: never idle for 300 ms (with room for a loaded machine's late timers),
    // but 100 bytes would take 3 s
    const drip = setInterval(() => stalled.socket.write('x'), 30);
    try {
      await Promise.race([stalled.closed, new Promise((_, reject) => setTimeout(() => reject(new Error('never closed')), CLIENT_DEADLINE_MS))]);
    } finally {
      clearInterval(drip);
    }
    const reply = stalled.received();
    assert.match(reply, /^HTTP\/1\.1 408 /);
    assert.ok(reply.endsWith('request body did not arrive within 1500 ms'), reply);
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'shared.txt'), 'utf8'), 'original\n');
    assert.deepEqual(await tempFiles(d.sandbox.root), []);
  });
});

describe('a lock held in this process', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'held.txt': 'original\n' }, limits: { lockTimeoutMs: 200 } });
  });
  after(() => d.close());

  test('a PUT waits no longer than its lock deadline: 503 lock_timeout, nothing written; the next PUT after the release lands', async () => {
    const real = path.join(d.sandbox.root, 'held.txt');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const holding = new Promise<void>((r) => (entered = r));
    const holder = d.engine.locks.withLocks([real], async () => {
      entered();
      await gate;
    });
    await holding;
    try {
      const r = await d.call(`/v1/fs/file?${q({ path: 'held.txt' })}`, { method: 'PUT', body: 'new\n', signal: AbortSignal.timeout(CLIENT_DEADLINE_MS) });
      assert.equal(r.status, 503);
      assert.equal(r.headers.get('hashline-error-code'), 'lock_timeout');
      assert.match(await r.text(), /holds the lock on .*held\.txt.; try again$/);
      assert.equal(await fsp.readFile(real, 'utf8'), 'original\n');
      assert.deepEqual(await tempFiles(d.sandbox.root), []);
    } finally {
      release();
      await holder;
    }
    const again = await d.call(`/v1/fs/file?${q({ path: 'held.txt' })}`, { method: 'PUT', body: 'new\n', signal: AbortSignal.timeout(CLIENT_DEADLINE_MS) });
    assert.equal(again.status, 204);
    assert.equal(await fsp.readFile(real, 'utf8'), 'new\n');
  });
});
