// A closing server waits for the requests in flight, not for idle connections: one a client
// opened and sent nothing on, or one that finished its request during the shutdown, is ended at
// once instead of holding close() until the headers or keep-alive timeout (60-70 s).

import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { q, startDaemon } from './harness.js';

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), ms).unref())]);

test('a connection that never sent a byte does not hold the shutdown', async () => {
  const d = await startDaemon({ files: { 'a.txt': 'a\n' } });
  const { hostname, port } = new URL(d.url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  try {
    assert.ok(await within(d.close(), 5000), 'close() waited on an idle connection');
    assert.ok(await within(ended, 1000), 'the idle connection was left open');
  } finally {
    socket.destroy();
  }
});

test('a keep-alive connection whose request finishes during the shutdown is ended, the request answered', async () => {
  const d = await startDaemon({ files: { 'a.txt': 'a\n' } });
  const { hostname, port } = new URL(d.url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let reply = '';
  socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  try {
    // a PUT whose body is still arriving when the shutdown begins
    socket.write(`PUT /v1/fs/file?${q({ path: 'b.txt' })} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: 4\r\n\r\nhe`);
    await new Promise((r) => setTimeout(r, 200));
    const closed = d.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write('y\n');
    assert.ok(await within(closed, 5000), 'close() waited on a connection gone idle');
    assert.ok(await within(ended, 1000), 'the connection was left open');
    assert.match(reply, /^HTTP\/1\.1 204 /);
  } finally {
    socket.destroy();
  }
});
