// /mcp of a real `hashline serve` answers a change that landed as a success whatever its size, as
// stdio does: the same 200,000-line file, read, then `delete 10..190000`; the diff is left out with
// a note and the reply stays within the 8 MiB message limit.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from '../../src/core/config/config.js';
import { diffLeftOut } from '../../src/core/messages/edit.js';
import { computeTag } from '../../src/core/text/tag.js';
import { cliArgs, REPO } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('/mcp: a 189,991-line delete succeeds with its diff left out, and the disk holds the change', async () => {
  const sb = await makeSandbox();
  const pad = 'x'.repeat(42);
  const lines = Array.from({ length: 200_000 }, (_, i) => `line ${String(i + 1).padStart(7, '0')} ${pad}\n`);
  await fsp.writeFile(path.join(sb.root, 'big.txt'), lines.join(''));
  const child = spawn(process.execPath, [...cliArgs(), 'serve', '--root', sb.root, '--port', '0', '--no-token'], {
    cwd: REPO,
    env: { ...process.env, HASHLINE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const client = new Client({ name: 'hashline-test', version: '0.0.0' });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`hashline serve exited: ${out}${err}`)));
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const read = (await client.callTool({ name: 'fs_read', arguments: { targets: [{ path: 'big.txt', line_range: '1-3' }] } })) as CallToolResult;
    const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
    const r = (await client.callTool({ name: 'fs_edit', arguments: { targets: [{ path: 'big.txt', file_hash: tag, ops: 'delete 10..190000' }] } })) as CallToolResult;
    assert.notEqual(r.isError, true, JSON.stringify(r).slice(0, 2000));
    const expected = [...lines.slice(0, 9), ...lines.slice(190_000)].join('');
    assert.equal(await fsp.readFile(path.join(sb.root, 'big.txt'), 'utf8'), expected);
    const res = (r.structuredContent as { results: Array<{ file_hash: string; warnings: string[]; diff?: string }> }).results[0]!;
    assert.equal(res.file_hash, computeTag(expected));
    assert.equal(res.diff, undefined);
    assert.ok(res.warnings.includes(diffLeftOut('big.txt', 10)), res.warnings.join('\n'));
    assert.ok(Buffer.byteLength(JSON.stringify(r)) < MAX_MESSAGE_BYTES);
  } finally {
    await client.close().catch(() => undefined);
    child.kill('SIGTERM');
    await exited;
    await sb.cleanup();
  }
});
