// GET and PUT /v1/fs/file over real HTTP on loopback: every status the spec names, the range rule
// on the wire, a binary round trip, a streamed window of a file larger than the in-memory path,
// modes, limits and the disk reserve, and that nothing partial or temporary is left behind.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { TEMP_MARKER } from '../../../src/core/own-names.js';
import { BOUNDS_NOT_INTEGERS, endBeforeStart, NO_SUCH_FILE, PATH_IS_DIRECTORY, PATH_REQUIRED, START_LINE_ZERO } from '../../../src/core/messages/http.js';
import { type Daemon, q, startDaemon } from '../harness.js';

const BINARY = Uint8Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256);

async function tempFiles(dir: string): Promise<string[]> {
  const all = (await fsp.readdir(dir, { recursive: true })) as string[];
  return all.filter((f) => f.includes(TEMP_MARKER));
}

describe('GET /v1/fs/file', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'a.txt': 'one\ntwo\nthree', 'bin.dat': BINARY, 'dir/x.txt': 'x\n' } });
  });
  after(() => d.close());

  const get = async (params: Record<string, string | number>) => {
    const r = await d.call(`/v1/fs/file?${q(params)}`);
    return { status: r.status, type: r.headers.get('content-type') ?? '', body: await r.text() };
  };

  const ROWS: Array<[string, Record<string, string | number>, number, string]> = [
    ['whole file', { path: 'a.txt' }, 200, 'one\ntwo\nthree'],
    ['line 1 owns its \\n', { path: 'a.txt', start_line: 1, end_line: 1 }, 200, 'one\n'],
    ['last line without \\n', { path: 'a.txt', start_line: 3 }, 200, 'three'],
    ['end past EOF reads through EOF', { path: 'a.txt', start_line: 2, end_line: 1000 }, 200, 'two\nthree'],
    ['start past EOF is empty', { path: 'a.txt', start_line: 99 }, 200, ''],
    ['end only', { path: 'a.txt', end_line: 2 }, 200, 'one\ntwo\n'],
    ['start 0', { path: 'a.txt', start_line: 0 }, 400, START_LINE_ZERO],
    ['inverted', { path: 'a.txt', start_line: 3, end_line: 2 }, 400, endBeforeStart(2, 3)],
    ['non-integer', { path: 'a.txt', start_line: 'one' }, 400, BOUNDS_NOT_INTEGERS],
    ['missing path', { start_line: 1 }, 400, PATH_REQUIRED],
    ['range checked before the open', { path: 'nope.txt', start_line: 0 }, 400, START_LINE_ZERO],
    ['missing file', { path: 'nope.txt' }, 404, NO_SUCH_FILE],
    ['directory', { path: 'dir' }, 400, PATH_IS_DIRECTORY],
  ];
  for (const [name, params, status, body] of ROWS) {
    test(`${name} → ${status}`, async () => {
      const r = await get(params);
      assert.equal(r.status, status);
      assert.equal(r.body, body);
      assert.match(r.type, status === 200 ? /^application\/octet-stream/ : /^text\/plain/);
    });
  }

  test('outside the root → 403 with the guard message', async () => {
    for (const p of ['../outside/secret.txt', path.join(d.sandbox.outside, 'secret.txt')]) {
      const r = await get({ path: p });
      assert.equal(r.status, 403);
      assert.match(r.body, /^permission denied: /);
      assert.doesNotMatch(r.body, /TOP SECRET/);
    }
  });

  test('a link to outside → 403', async () => {
    await fsp.symlink(path.join(d.sandbox.outside, 'secret.txt'), path.join(d.sandbox.root, 'leak'));
    const r = await get({ path: 'leak' });
    assert.equal(r.status, 403);
  });

  test('unknown query keys are refused, not dropped', async () => {
    const r = await get({ path: 'a.txt', start: 1 });
    assert.equal(r.status, 400);
  });

  test('without a range, 512 bytes of binary come back byte-identical', async () => {
    const r = await d.call(`/v1/fs/file?${q({ path: 'bin.dat' })}`);
    assert.deepEqual(new Uint8Array(await r.arrayBuffer()), BINARY);
  });

  test('a window of a large file is streamed and exact', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1}\n`);
    await fsp.writeFile(path.join(d.sandbox.root, 'big.txt'), lines.join(''));
    const a = await get({ path: 'big.txt', start_line: 150_000, end_line: 150_002 });
    assert.equal(a.body, 'line 150000\nline 150001\nline 150002\n');
    const b = await get({ path: 'big.txt', start_line: 199_999 });
    assert.equal(b.body, 'line 199999\nline 200000\n');
    const c = await d.call(`/v1/fs/file?${q({ path: 'big.txt' })}`);
    assert.equal((await c.arrayBuffer()).byteLength, lines.join('').length);
  });
});

describe('PUT /v1/fs/file', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: { 'keep.txt': 'old\n', 'dir/x.txt': 'x\n' }, limits: { maxBodyBytes: 64 * 1024 } });
  });
  after(() => d.close());

  const put = async (params: Record<string, string | number>, body: BodyInit, headers: Record<string, string> = {}) => {
    const r = await d.call(`/v1/fs/file?${q(params)}`, { method: 'PUT', body, headers });
    return { status: r.status, body: await r.text() };
  };

  test('binary round trip, parents created, 204', async () => {
    const data = randomBytes(20_000);
    assert.equal((await put({ path: 'deep/er/data.bin' }, data)).status, 204);
    const back = await d.call(`/v1/fs/file?${q({ path: 'deep/er/data.bin' })}`);
    assert.deepEqual(Buffer.from(await back.arrayBuffer()), data);
  });

  test('a JSON content type is still the raw body', async () => {
    assert.equal((await put({ path: 'j.json' }, '{"a":', { 'content-type': 'application/json' })).status, 204);
    assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'j.json'), 'utf8'), '{"a":');
  });

  test('a streamed body (chunked) is written', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(`chunk ${i}\n`));
        c.close();
      },
    });
    assert.equal((await put({ path: 'streamed.txt' }, stream)).status, 204);
    assert.match(await fsp.readFile(path.join(d.sandbox.root, 'streamed.txt'), 'utf8'), /^chunk 0\n.*chunk 9\n$/s);
  });

  for (const [raw, mode] of [['644', 0o644], ['0600', 0o600], ['0o755', 0o755]] as const) {
    test(`mode ${raw}`, async () => {
      assert.equal((await put({ path: `m${raw}.sh`, mode: raw }, '#!/bin/sh\n')).status, 204);
      const st = await fsp.stat(path.join(d.sandbox.root, `m${raw}.sh`));
      assert.equal(st.mode & 0o7777, mode);
    });
  }

  test('an existing file gets the new mode', async () => {
    assert.equal((await put({ path: 'keep.txt', mode: '600' }, 'new\n')).status, 204);
    assert.equal((await fsp.stat(path.join(d.sandbox.root, 'keep.txt'))).mode & 0o777, 0o600);
  });

  for (const raw of ['10000', '999', 'rw-r--r--', '0x1ff', '', '-644']) {
    test(`mode ${JSON.stringify(raw)} → 400 before anything is written`, async () => {
      const r = await put({ path: 'never.txt', mode: raw }, 'data');
      assert.equal(r.status, 400);
      assert.equal(r.body, `mode ${raw} is not a valid octal file mode`);
      await assert.rejects(fsp.access(path.join(d.sandbox.root, 'never.txt')));
    });
  }

  for (const raw of ['6777', '4755', '2755', '1777', '0o4644', '07000']) {
    test(`mode ${raw} (setuid, setgid or sticky) → 400 before anything is written, an existing file untouched`, async () => {
      for (const target of ['never.txt', 'keep.txt']) {
        const before = await fsp.stat(path.join(d.sandbox.root, target)).catch(() => null);
        const beforeText = before ? await fsp.readFile(path.join(d.sandbox.root, target), 'utf8') : null;
        const r = await put({ path: target, mode: raw }, 'data');
        assert.equal(r.status, 400);
        assert.equal(r.body, `mode ${raw} sets setuid, setgid or sticky bits, which are refused`);
        if (before === null) await assert.rejects(fsp.access(path.join(d.sandbox.root, target)));
        else {
          const after = await fsp.stat(path.join(d.sandbox.root, target));
          assert.equal(after.mode, before.mode);
          assert.equal(await fsp.readFile(path.join(d.sandbox.root, target), 'utf8'), beforeText);
        }
      }
    });
  }

  test('missing path → 400', async () => {
    const r = await put({ mode: '644' }, 'x');
    assert.deepEqual(r, { status: 400, body: PATH_REQUIRED });
  });

  test('a directory → 400', async () => {
    const r = await put({ path: 'dir' }, 'x');
    assert.deepEqual(r, { status: 400, body: PATH_IS_DIRECTORY });
  });

  test('outside the root → 403, nothing written', async () => {
    const r = await put({ path: '../outside/secret.txt' }, 'pwned');
    assert.equal(r.status, 403);
    assert.equal(await fsp.readFile(path.join(d.sandbox.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  });

  test('a declared body over the limit → 413, no file', async () => {
    const r = await put({ path: 'big.bin' }, randomBytes(100 * 1024));
    assert.equal(r.status, 413);
    assert.equal(r.body, 'request body exceeds 65536 bytes');
    await assert.rejects(fsp.access(path.join(d.sandbox.root, 'big.bin')));
  });

  test('a streamed body over the limit → 413, no partial or temp file', async () => {
    const chunk = randomBytes(16 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 8) c.enqueue(chunk);
        else c.close();
      },
    });
    const r = await put({ path: 'big2.bin' }, stream);
    assert.equal(r.status, 413);
    await assert.rejects(fsp.access(path.join(d.sandbox.root, 'big2.bin')));
    assert.deepEqual(await tempFiles(d.sandbox.root), []);
  });
});

const busy = async (d: Daemon) => ((await (await d.call('/v1/health', { auth: false })).json()) as { busy: number }).busy;

describe('an upload cut short', () => {
  test('the client goes away mid-body: no file, no temporary file, the old content kept', async () => {
    const d = await startDaemon({ files: { 'kept.txt': 'old\n' } });
    try {
      for (const target of ['kept.txt', 'fresh.txt']) {
        const ac = new AbortController();
        let pulls = 0;
        const body = new ReadableStream<Uint8Array>({
          async pull(c) {
            if (pulls++ < 3) c.enqueue(new Uint8Array(64 * 1024).fill(65));
            else {
              ac.abort();
              await new Promise((r) => setTimeout(r, 50));
            }
          },
        });
        await assert.rejects(d.call(`/v1/fs/file?${q({ path: target })}`, { method: 'PUT', body, signal: ac.signal }));
        // the client gives up before the server may even have started on the request: wait
        // until the server has no request in flight but the health check asking (an aborted
        // request counts as finished when its connection closes)
        let inFlight = await busy(d);
        for (let i = 0; i < 500 && inFlight > 0; i++) {
          await new Promise((r) => setTimeout(r, 10));
          inFlight = await busy(d);
        }
        assert.equal(inFlight, 0, 'the aborted upload is still counted as in flight');
        assert.deepEqual(await tempFiles(d.sandbox.root), []);
      }
      assert.equal(await fsp.readFile(path.join(d.sandbox.root, 'kept.txt'), 'utf8'), 'old\n');
      await assert.rejects(fsp.access(path.join(d.sandbox.root, 'fresh.txt')));
    } finally {
      await d.close();
    }
  });
});

describe('disk reserve', () => {
  test('below the reserve → 507 with the spec text, nothing left', async () => {
    const d = await startDaemon({ limits: { diskReserveBytes: Number.MAX_SAFE_INTEGER } });
    try {
      const r = await d.call(`/v1/fs/file?${q({ path: 'new/f.txt' })}`, { method: 'PUT', body: 'x' });
      assert.equal(r.status, 507);
      assert.match(await r.text(), /^refusing to write new\/f\.txt: \d+ bytes available on the target filesystem, below the 9007199254740991 byte reserve$/);
      assert.deepEqual(await fsp.readdir(d.sandbox.root), []);
      const health = (await (await d.call('/v1/health', { auth: false })).json()) as { disk: { under_pressure: boolean } };
      assert.equal(health.disk.under_pressure, true);
    } finally {
      await d.close();
    }
  });
});

describe('bearer auth', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ token: 's3cret-token', files: { 'a.txt': 'a\n' } });
  });
  after(() => d.close());

  for (const [name, header] of [['no header', undefined], ['wrong token', 'Bearer nope'], ['wrong scheme', 'Basic s3cret-token'], ['prefix of the token', 'Bearer s3cret']] as const) {
    test(`${name} → 401`, async () => {
      const headers: Record<string, string> = header === undefined ? {} : { authorization: header };
      for (const [method, p] of [['GET', '/v1/fs/file?path=a.txt'], ['PUT', '/v1/fs/file?path=b.txt'], ['GET', '/v1/fs/tar?path=.'], ['POST', '/mcp']] as const) {
        const r = await d.call(p, { method, headers, auth: false, ...(method === 'GET' ? {} : { body: 'x' }) });
        assert.equal(r.status, 401, `${method} ${p}`);
        assert.equal(await r.text(), 'missing or wrong bearer token');
        assert.equal(r.headers.get('www-authenticate'), 'Bearer');
      }
      await assert.rejects(fsp.access(path.join(d.sandbox.root, 'b.txt')));
    });
  }

  test('the right token passes; health and schema need none', async () => {
    assert.equal((await d.call('/v1/fs/file?path=a.txt')).status, 200);
    assert.equal((await d.call('/v1/health', { auth: false })).status, 200);
    assert.equal((await d.call('/v1/schema', { auth: false })).status, 200);
  });
});
