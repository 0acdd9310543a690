// The fast GET /v1/fs/file path (src/http/file/fast-file-get.ts) against the fastify route it stands
// in front of: two daemons over the same tree, one with the fast path and one without, answer the
// same requests (plain reads, windows, escaped and non-ASCII names, and every refusal: range,
// schema, auth, Host, Origin, guard, links) with the same status, headers (Date aside) and bytes.
// The fast daemon's fastify must not have seen the plain reads (so the fast path answered them)
// and must have seen every other request (so refusals keep their own path). An edit of the
// configuration file that blocks a file applies from the next request on, as on the fastify path.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { ConfigSource } from '../../../src/io/guard/config-file.js';
import { createHttpServer } from '../../../src/http/server.js';
import { createEngine } from '../../../src/tools/engine.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';
import { type Daemon, startDaemon } from '../harness.js';

const TOKEN = 'fast-path-token-0123456789';
const FILES = {
  'a.txt': 'one\ntwo\nthree\n',
  'sp ace.txt': 'spaced\n',
  'été.txt': 'non-ascii name\n',
  'dir/x.txt': 'x\n',
  'blocked/s.txt': 'blocked\n',
  'big.txt': 'y'.repeat(99) + '\n'.repeat(1) + 'z'.repeat(100 * 1024),
};

interface Raw {
  status: number;
  headers: string[];
  body: Buffer;
}

/** One request over a fresh connection; the reply's status, raw header pairs without Date, and bytes. */
function rawGet(base: string, pathAndQuery: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: pathAndQuery, method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') pairs.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(parts) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v1/fs/file before fastify', () => {
  let fast: Daemon;
  let slow: Daemon;
  before(async () => {
    const opts = { files: FILES, token: TOKEN, readBlock: ['blocked'] };
    fast = await startDaemon(opts);
    slow = await startDaemon({ ...opts, fastFileGet: false });
    for (const d of [fast, slow]) await fsp.symlink(path.join(d.sandbox.outside, 'secret.txt'), path.join(d.sandbox.root, 'link.txt'));
  });
  after(async () => {
    await fast.close();
    await slow.close();
  });

  const auth = { authorization: `Bearer ${TOKEN}` };
  // [name, query (ROOT stands for the daemon's root), headers, answered by the fast path]
  const CASES: Array<[string, string, Record<string, string>, boolean]> = [
    ['whole file', 'path=a.txt', auth, true],
    ['a window', 'path=a.txt&start_line=2&end_line=3', auth, true],
    ['start past EOF', 'path=a.txt&start_line=9', auth, true],
    ['an escaped space', 'path=sp%20ace.txt', auth, true],
    ['a non-ASCII name', `path=${encodeURIComponent('été.txt')}`, auth, true],
    ['an absolute path inside the root', 'path=ROOT%2Fa.txt', auth, true],
    ['a lower-case scheme', 'path=a.txt', { authorization: `bearer ${TOKEN}` }, true],
    ['a plus for a space', 'path=sp+ace.txt', auth, false],
    ['a bad escape', 'path=a%E0%A4%A.txt', auth, false],
    ['start_line 0', 'path=a.txt&start_line=0', auth, false],
    ['a bound not an integer', 'path=a.txt&end_line=x', auth, false],
    ['end before start', 'path=a.txt&start_line=3&end_line=2', auth, false],
    ['an unknown key', 'path=a.txt&extra=1', auth, false],
    ['a repeated key', 'path=a.txt&path=dir%2Fx.txt', auth, false],
    ['no path', 'start_line=1', auth, false],
    ['a missing file', 'path=missing.txt', auth, false],
    ['a directory', 'path=dir', auth, false],
    ['a link to outside', 'path=link.txt', auth, false],
    ['an escape by ..', 'path=..%2Foutside%2Fsecret.txt', auth, false],
    ['a read-blocked file', 'path=blocked%2Fs.txt', auth, false],
    ['a file over the whole-read size', 'path=big.txt&start_line=2', auth, false],
    ['no token', 'path=a.txt', {}, false],
    ['a wrong token', 'path=a.txt', { authorization: 'Bearer wrong' }, false],
    ['an upper-case scheme (the schema refuses it)', 'path=a.txt', { authorization: `BEARER ${TOKEN}` }, false],
    ['a foreign Host', 'path=a.txt', { ...auth, host: 'evil.example' }, false],
    ['a foreign Origin', 'path=a.txt', { ...auth, origin: 'http://evil.example' }, false],
  ];

  for (const [name, query, headers, answeredFast] of CASES) {
    test(`${name}: the same reply on both paths${answeredFast ? ', answered before fastify' : ', left to fastify'}`, async () => {
      const ask = (d: Daemon) => rawGet(d.url, `/v1/fs/file?${query.replace('ROOT', encodeURIComponent(d.sandbox.root))}`, headers);
      const seen = fast.routed();
      const a = await ask(fast);
      await new Promise((r) => setImmediate(r)); // fastify's onResponse runs as the reply finishes
      assert.equal(fast.routed() - seen, answeredFast ? 0 : 1, answeredFast ? 'fastify did not see it' : 'fastify answered it');
      const b = await ask(slow);
      // error messages may name the sandbox; each is replaced by the same word
      const norm = (r: Raw, d: Daemon) => ({ ...r, body: r.body.toString('latin1').split(d.sandbox.base).join('BASE') });
      const [na, nb] = [norm(a, fast), norm(b, slow)];
      assert.equal(na.status, nb.status);
      assert.equal(na.body, nb.body);
      if (a.body.length === b.body.length) assert.deepEqual(a.headers, b.headers);
      else assert.deepEqual(a.headers.filter((h) => !h.startsWith('content-length')), b.headers.filter((h) => !h.startsWith('content-length')));
      if (answeredFast) assert.equal(a.status, 200);
    });
  }

  test('HEAD is left to fastify', async () => {
    const seen = fast.routed();
    const a = await rawGet(fast.url, '/v1/fs/file?path=a.txt', auth, 'HEAD');
    await new Promise((r) => setImmediate(r));
    const b = await rawGet(slow.url, '/v1/fs/file?path=a.txt', auth, 'HEAD');
    assert.equal(fast.routed() - seen, 1);
    assert.deepEqual([a.status, a.headers, a.body.length], [b.status, b.headers, b.body.length]);
  });
});

test('an edit of the configuration file applies to the fast path from the next request on', async () => {
  const sb = await makeSandbox({ 'a.txt': 'readable\n' });
  const config = path.join(sb.root, 'hashline.toml');
  const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }), {
    configSource: ConfigSource.open({ path: config, explicit: false }),
  });
  const { app } = await createHttpServer(engine, { tools: [], host: '127.0.0.1', limits: { diskReserveBytes: 0 } });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const before = await rawGet(url, '/v1/fs/file?path=a.txt', {});
    assert.equal(before.status, 200);
    assert.equal(before.body.toString(), 'readable\n');
    await fsp.writeFile(config, `block = [${JSON.stringify(path.join(sb.root, 'a.txt'))}]\n`);
    const after1 = await rawGet(url, '/v1/fs/file?path=a.txt', {});
    assert.equal(after1.status, 403, 'the block applies to the very next request');
    const after2 = await rawGet(url, '/v1/fs/file?path=a.txt', {});
    assert.equal(after2.status, 403, 'and to every request after it');
    assert.ok(!after2.body.toString().includes('readable'));
  } finally {
    await app.close();
    await sb.cleanup();
  }
});

test('under concurrent requests, one look at the configuration serves a batch, and an edit applies to every request sent after it', async () => {
  const sb = await makeSandbox({ 'a.txt': 'readable\n' });
  const config = path.join(sb.root, 'hashline.toml');
  await fsp.writeFile(config, '# no rules yet\n');
  const source = ConfigSource.open({ path: config, explicit: false });
  let looks = 0;
  const refresh = source.refresh.bind(source);
  source.refresh = () => {
    looks++;
    return refresh();
  };
  const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }), { configSource: source });
  const { app } = await createHttpServer(engine, { tools: [], host: '127.0.0.1', limits: { diskReserveBytes: 0 } });
  let routed = 0;
  app.addHook('onResponse', async () => {
    routed++;
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const u = new URL(url);
      const req = http.get({ host: u.hostname, port: u.port, path: '/v1/fs/file?path=a.txt', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
    });
  try {
    // rounds of 16 requests sent together over 16 open connections, answered before fastify
    await Promise.all(Array.from({ length: 16 }, get));
    const [looks0, routed0] = [looks, routed];
    for (let round = 0; round < 4; round++) assert.deepEqual(await Promise.all(Array.from({ length: 16 }, get)), Array(16).fill(200));
    assert.equal(routed, routed0, 'fastify saw none of the 64 reads');
    assert.ok(looks - looks0 < 64, `fewer looks at the configuration than requests (${looks - looks0} for 64)`);

    // requests keep flowing on 16 connections while the file is edited
    let edited = false;
    let stop = false;
    const seen: Array<{ sentAfterEdit: boolean; status: number }> = [];
    const worker = async () => {
      while (!stop) {
        const sentAfterEdit = edited; // taken as the request is sent
        seen.push({ sentAfterEdit, status: await get() });
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    while (seen.length < 100) await new Promise((r) => setImmediate(r));
    await fsp.writeFile(config, `block = [${JSON.stringify(path.join(sb.root, 'a.txt'))}]\n`);
    edited = true;
    while (seen.filter((s) => s.sentAfterEdit).length < 200) await new Promise((r) => setImmediate(r));
    stop = true;
    await Promise.all(workers);
    const after = seen.filter((s) => s.sentAfterEdit);
    assert.ok(seen.some((s) => !s.sentAfterEdit && s.status === 200), 'reads passed before the edit');
    assert.deepEqual(
      after.filter((s) => s.status !== 403),
      [],
      'every request sent after the edit is refused',
    );
  } finally {
    agent.destroy();
    await app.close();
    await sb.cleanup();
  }
});
