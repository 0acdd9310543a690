// `hashline serve` as a real process: it prints the URL, where the token is and an MCP client
// configuration; without a token given it makes one (another local user's PUT is refused);
// `--no-token` is loopback only (exit 2 elsewhere); on SIGTERM it lets a write in flight finish,
// leaves no temporary file, and exits 0 without waiting on an idle
// connection.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { cliArgs, REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';
import { TEMP_MARKER } from '../../src/core/own-names.js';

function spawnServe(args: string[], env: Record<string, string> = {}): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [...cliArgs(), 'serve', ...args], {
    cwd: REPO,
    env: { ...process.env, HASHLINE_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function waitFor(get: () => string, re: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
  const end = Date.now() + ms;
  for (;;) {
    const m = get().match(re);
    if (m) return m;
    if (Date.now() > end) throw new Error(`timed out waiting for ${re}; got ${get()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('beyond loopback without a token: refused at start-up, exit 2', async () => {
  const sb = await makeSandbox();
  try {
    const p = spawnServe(['--root', sb.root, '--host', '0.0.0.0', '--port', '0']);
    assert.equal(await p.exit, 2);
    assert.match(p.err(), /refusing to listen on 0\.0\.0\.0 without a bearer token/);
  } finally {
    await sb.cleanup();
  }
});

test('--no-token beyond loopback, or beside a token, is refused at start-up, exit 2', async () => {
  const sb = await makeSandbox();
  try {
    const wide = spawnServe(['--root', sb.root, '--host', '0.0.0.0', '--port', '0', '--no-token']);
    assert.equal(await wide.exit, 2);
    assert.match(wide.err(), /refusing to listen on 0\.0\.0\.0 without a bearer token.*--no-token is for loopback/);
    const both = spawnServe(['--root', sb.root, '--port', '0', '--no-token'], { HASHLINE_TOKEN: 'x' });
    assert.equal(await both.exit, 2);
    assert.match(both.err(), /--no-token contradicts HASHLINE_TOKEN/);
  } finally {
    await sb.cleanup();
  }
});

test('no token given on loopback: a token is made and printed; a PUT without it is refused, with it lands', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const p = spawnServe(['--root', sb.root, '--port', '0']);
  try {
    const [, url] = await waitFor(p.out, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
    const [, token] = await waitFor(p.out, /\n {2}token: ([A-Za-z0-9_-]{32})\n/);
    assert.match(p.out(), new RegExp(`console: ${url}/ \\(log in with the token below\\)`));
    assert.ok(p.out().includes(`"Authorization": "Bearer ${token}"`), 'the printed client configuration carries the token');
    const anon = await fetch(`${url}/v1/fs/file?path=a.txt`, { method: 'PUT', body: 'owned\n' });
    assert.equal(anon.status, 401);
    assert.equal((await fetch(`${url}/v1/fs/file?path=a.txt`)).status, 401);
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'a\n');
    const put = await fetch(`${url}/v1/fs/file?path=a.txt`, { method: 'PUT', body: 'mine\n', headers: { authorization: `Bearer ${token}` } });
    assert.equal(put.status, 204);
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'mine\n');
    // the console asks for a login too
    assert.equal((await fetch(`${url}/console/api/feed`)).status, 401);
    p.child.kill('SIGTERM');
    assert.equal(await p.exit, 0);
  } finally {
    p.child.kill('SIGKILL');
    await sb.cleanup();
  }
});

test('--no-token on loopback serves without a token and says so', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const p = spawnServe(['--root', sb.root, '--port', '0', '--no-token']);
  try {
    const [, url] = await waitFor(p.out, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitFor(p.out, /"command"/);
    assert.match(p.out(), /auth: no token \(--no-token\)/);
    assert.doesNotMatch(p.out(), /Authorization/);
    assert.equal(await (await fetch(`${url}/v1/fs/file?path=a.txt`)).text(), 'a\n');
    p.child.kill('SIGTERM');
    assert.equal(await p.exit, 0);
  } finally {
    p.child.kill('SIGKILL');
    await sb.cleanup();
  }
});

test('serves, prints the configuration, and shuts down gracefully on SIGTERM', async () => {
  const sb = await makeSandbox({ 'a.txt': 'a\nb\n' });
  const tokenFile = path.join(sb.base, 'token');
  await fsp.writeFile(tokenFile, 'proc-token\n');
  const p = spawnServe(['--root', sb.root, '--port', '0', '--token-file', tokenFile]);
  try {
    const [, url] = await waitFor(p.out, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
    await waitFor(p.out, /"stdio"|"command"/);
    assert.match(p.out(), new RegExp(`the bearer token is in ${tokenFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.match(p.out(), /"url": "http:\/\/127\.0\.0\.1:\d+\/mcp"/);
    assert.doesNotMatch(p.out(), /proc-token/, 'the token itself is not printed');
    const auth = { authorization: 'Bearer proc-token' };
    const read = await fetch(`${url}/v1/fs/file?path=a.txt&start_line=2`, { headers: auth });
    assert.equal(await read.text(), 'b\n');
    assert.equal((await fetch(`${url}/v1/fs/file?path=a.txt`)).status, 401);

    // a slow upload in flight when SIGTERM arrives completes; then the process exits 0
    let push!: (chunk: Uint8Array | null) => void;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        push = (chunk) => (chunk === null ? c.close() : c.enqueue(chunk));
      },
    });
    // and a connection opened with nothing sent on it does not hold the exit (it would until the
    // headers timeout, 60 s and more)
    const { hostname, port } = new URL(url!);
    const idle = (await import('node:net')).connect(Number(port), hostname);
    idle.on('error', () => undefined);
    await new Promise<void>((resolve) => idle.once('connect', () => resolve()));
    const upload = fetch(`${url}/v1/fs/file?path=slow.txt`, { method: 'PUT', headers: auth, body, duplex: 'half' } as RequestInit);
    push(new TextEncoder().encode('first half, '));
    await new Promise((r) => setTimeout(r, 200));
    p.child.kill('SIGTERM');
    await waitFor(p.err, /SIGTERM/);
    push(new TextEncoder().encode('second half\n'));
    push(null);
    assert.equal((await upload).status, 204);
    const exited = await Promise.race([p.exit, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 10_000).unref())]);
    idle.destroy();
    assert.equal(exited, 0, 'the process exits 0 without waiting on the idle connection');
    assert.equal(await fsp.readFile(path.join(sb.root, 'slow.txt'), 'utf8'), 'first half, second half\n');
    const left = ((await fsp.readdir(sb.root, { recursive: true })) as string[]).filter((f) => f.includes(TEMP_MARKER));
    assert.deepEqual(left, []);
  } finally {
    p.child.kill('SIGKILL');
    await sb.cleanup();
  }
});

test('--body-idle-timeout-ms: a PUT whose body stalls gets 408 from the real process, nothing written', async () => {
  const sb = await makeSandbox({ 'a.txt': 'old\n' });
  const p = spawnServe(['--root', sb.root, '--port', '0', '--no-token', '--body-idle-timeout-ms', '300', '--request-timeout-ms', '60000', '--lock-timeout-ms', '500']);
  try {
    const [, url] = await waitFor(p.out, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
    const { hostname, port } = new URL(url!);
    const net = await import('node:net');
    const socket = net.connect(Number(port), hostname);
    let reply = '';
    socket.on('data', (c: Buffer) => (reply += c.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`PUT /v1/fs/file?path=a.txt HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: 100\r\n\r\nhello`);
    await closed;
    assert.match(reply, /^HTTP\/1\.1 408 /);
    assert.ok(reply.endsWith('request body stalled: no bytes arrived for 300 ms'), reply);
    assert.equal(await fsp.readFile(path.join(sb.root, 'a.txt'), 'utf8'), 'old\n');
    p.child.kill('SIGTERM');
    assert.equal(await p.exit, 0);
  } finally {
    p.child.kill('SIGKILL');
    await sb.cleanup();
  }
});

/** A tree large enough that its archive fills the socket's buffers long before its end. */
async function bigTree(root: string): Promise<void> {
  await fsp.mkdir(path.join(root, 'big'));
  const chunk = Buffer.alloc(1 << 20, 0x61);
  for (let i = 0; i < 48; i++) await fsp.writeFile(path.join(root, 'big', `f${i}.txt`), chunk);
}

/** Starts a GET of the tree's archive and never reads it: the server's writes stall. */
async function stalledGet(url: string): Promise<import('node:net').Socket> {
  const { hostname, port } = new URL(url);
  const socket = (await import('node:net')).connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.pause();
  socket.write(`GET /v1/fs/tar?path=big HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
  // the archive's first bytes arrive (the response is under way), then nothing is read
  await new Promise<void>((resolve) => socket.once('readable', () => resolve()));
  return socket;
}

for (const how of ['a second SIGTERM', 'the grace']) {
  test(`a stop with a client that no longer reads an archive: ${how} closes its connection and the process exits 0`, async () => {
    const sb = await makeSandbox({ 'a.txt': 'a\n' });
    await bigTree(sb.root);
    const p = spawnServe(['--root', sb.root, '--port', '0', '--no-token'], how === 'the grace' ? { HASHLINE_SHUTDOWN_GRACE_MS: '1500' } : {});
    try {
      const [, url] = await waitFor(p.out, /serving on (http:\/\/127\.0\.0\.1:\d+)/);
      const socket = await stalledGet(url!);
      p.child.kill('SIGTERM');
      await waitFor(p.err, /SIGTERM: finishing requests in flight/);
      const early = await Promise.race([p.exit, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 700).unref())]);
      assert.equal(early, 'waiting', 'the first signal waits for the request in flight');
      if (how === 'a second SIGTERM') p.child.kill('SIGTERM');
      const exited = await Promise.race([p.exit, new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 10_000).unref())]);
      socket.destroy();
      assert.equal(exited, 0, p.err());
      assert.match(p.err(), how === 'the grace' ? /requests still open after 1\.5 s: closing the connections left/ : /SIGTERM again: closing the connections left/);
    } finally {
      p.child.kill('SIGKILL');
      await sb.cleanup();
    }
  });
}
