// HashlineClient against a live daemon: the harness sandbox semantics of readTextFile, bad ranges
// refused with the daemon's words and without a request, writes, tar both ways, and coded errors.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HashlineError } from '../../src/core/errors/errors.js';
import { lineWindow } from '../../src/core/read/line-window.js';
import { HashlineClient } from '../../src/http/client.js';
import { type Daemon, q, startDaemon } from './harness.js';

describe('HashlineClient', () => {
  let d: Daemon;
  let client: HashlineClient;
  before(async () => {
    d = await startDaemon({ token: 'client-token', files: { 'a.txt': 'l1\nl2\nl3\nl4\n', 'dir/x.txt': 'x\n' } });
    client = new HashlineClient({ baseUrl: d.url, token: 'client-token' });
  });
  after(() => d.close());

  test('readTextFile: 1-based inclusive, an endLine past EOF reads through EOF', async () => {
    assert.equal(await client.readTextFile('a.txt'), 'l1\nl2\nl3\nl4\n');
    assert.equal(await client.readTextFile('a.txt', { startLine: 2, endLine: 3 }), 'l2\nl3\n');
    assert.equal(await client.readTextFile('a.txt', { startLine: 3, endLine: 1000 }), 'l3\nl4\n');
    assert.equal(await client.readTextFile('a.txt', { startLine: 50 }), '');
  });

  for (const [name, range] of [
    ['startLine 0', { startLine: 0 }],
    ['an inverted range', { startLine: 4, endLine: 2 }],
    ['a fraction', { startLine: 1.5 }],
    ['a negative end', { endLine: -1 }],
  ] as const) {
    test(`${name} is refused without a request, in the daemon's words`, async () => {
      const before = d.requests();
      const err = await client.readTextFile('a.txt', range).then(
        () => assert.fail('expected a refusal'),
        (e: unknown) => e as HashlineError,
      );
      assert.equal(d.requests(), before, 'no request was sent');
      assert.ok(err instanceof HashlineError);
      assert.equal(err.code, 'invalid_range');
      const expected = lineWindow({ path: 'a.txt', start_line: range.startLine, end_line: (range as { endLine?: number }).endLine });
      assert.equal(expected.ok, false);
      assert.equal(err.message, (expected as { message: string }).message);
      // and the daemon, asked directly, says the same words
      if (Number.isInteger(range.startLine ?? 1) && Number.isInteger((range as { endLine?: number }).endLine ?? 1)) {
        const params: Record<string, number | string> = { path: 'a.txt' };
        if (range.startLine !== undefined) params.start_line = range.startLine;
        if ((range as { endLine?: number }).endLine !== undefined) params.end_line = (range as { endLine: number }).endLine;
        const r = await d.call(`/v1/fs/file?${q(params)}`);
        assert.equal(r.status, 400);
        assert.equal(await r.text(), err.message);
      }
    });
  }

  test('writeFile with a mode, then read back; a stream body works too', async () => {
    await client.writeFile('w/new.sh', '#!/bin/sh\necho hi\n', { mode: 0o750 });
    assert.equal(await client.readTextFile('w/new.sh', { startLine: 2 }), 'echo hi\n');
    assert.equal((await fsp.stat(path.join(d.sandbox.root, 'w/new.sh'))).mode & 0o777, 0o750);
    async function* gen() {
      yield new TextEncoder().encode('a');
      yield new TextEncoder().encode('b');
    }
    await client.writeFile('w/gen.txt', gen());
    assert.equal(await client.readTextFile('w/gen.txt'), 'ab');
    await client.writeFile('w/bytes.bin', new Uint8Array([0, 255, 10, 13]));
    assert.deepEqual(await client.readFile('w/bytes.bin'), new Uint8Array([0, 255, 10, 13]));
  });

  test('getTar then putTar copies a directory', async () => {
    const stream = await client.getTar('dir');
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    await client.putTar(path.join(d.sandbox.root, 'copy'), bytes);
    assert.equal(await client.readTextFile('copy/x.txt'), 'x\n');
  });

  test('errors carry the daemon code', async () => {
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => client.readTextFile('missing.txt'), 'not_found'],
      [() => client.readTextFile('../outside/secret.txt'), 'path_outside_root'],
      [() => client.readTextFile('dir'), 'is_directory'],
      [() => client.writeFile('x', 'y', { mode: '9' }), 'invalid_arguments'],
      [() => client.putTar('relative', new Uint8Array(1024)), 'invalid_arguments'],
      [() => new HashlineClient({ baseUrl: d.url }).readTextFile('a.txt'), 'unauthorized'],
    ];
    for (const [promise, code] of cases) {
      await assert.rejects(promise(), (e: unknown) => e instanceof HashlineError && e.code === code);
    }
  });
});
