// One request must not freeze the daemon: a catastrophic regex (`^(a+)+$` on a line of 40 `a`s
// and a `!`, hours under a backtracking engine) and a catastrophic glob (`*a*a*a*a*a*a*b` on a long
// name, 12 s for 60 characters under picomatch's RegExp) sent to a real `hashline serve` over
// /mcp, while /v1/health is probed over real HTTP on loopback: every probe answers within 1 s and
// the search and listing finish (linear engines); a lookahead is refused with a code.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI_SOURCE, REPO } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let url: string;
let stop: () => Promise<void>;
let client: Client;

before(async () => {
  sb = await makeSandbox({ 'evil.txt': `${'a'.repeat(40)}!\n`, 'ok.txt': 'aaa\n' });
  await fsp.writeFile(path.join(sb.root, `${'a'.repeat(200)}.txt`), 'x\n');
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'serve', '--root', sb.root, '--port', '0', '--no-token'], {
    cwd: REPO,
    env: { ...process.env, HASHLINE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  stop = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`hashline serve exited: ${out}`)));
  });
  client = new Client({ name: 'pattern-stall', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
});

after(async () => {
  await client?.close().catch(() => undefined);
  await stop?.();
  await sb?.cleanup();
});

/** Runs `call` while probing /v1/health every 50 ms; the slowest probe's time and the result. */
async function probed<T>(call: Promise<T>): Promise<{ result: T; slowest: number; probes: number }> {
  let done = false;
  let slowest = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const t0 = performance.now();
      const r = await fetch(`${url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
      assert.equal(r.status, 200);
      await r.text();
      slowest = Math.max(slowest, performance.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const result = await call.finally(() => (done = true));
  await probing;
  return { result, slowest, probes };
}

test('fs_search with ^(a+)+$: /v1/health answers within 1 s meanwhile, and the search finishes', async () => {
  const t0 = performance.now();
  const { result, slowest, probes } = await probed(client.callTool({ name: 'fs_search', arguments: { pattern: '^(a+)+$', regex: true } }) as Promise<CallToolResult>);
  assert.notEqual(result.isError, true, JSON.stringify(result));
  const out = result.structuredContent as { total_matches: number };
  assert.equal(out.total_matches, 1, 'ok.txt matches, evil.txt does not');
  assert.ok(slowest < 1_000, `slowest health probe ${slowest.toFixed(0)} ms over ${probes} probes`);
  assert.ok(performance.now() - t0 < 30_000);
});

test('the glob *a*a*a*a*a*a*b on a 200-character name: health answers meanwhile, the listing finishes', async () => {
  for (const [name, args] of [
    ['fs_list', { path: '.', glob: '*a*a*a*a*a*a*b' }],
    ['fs_search', { pattern: 'x', glob: '*a*a*a*a*a*a*b' }],
  ] as const) {
    const { result, slowest, probes } = await probed(client.callTool({ name, arguments: args }) as Promise<CallToolResult>);
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.ok(slowest < 1_000, `${name}: slowest health probe ${slowest.toFixed(0)} ms over ${probes} probes`);
  }
});

test('a lookahead or back-reference is refused as pattern_unsupported', async () => {
  for (const pattern of ['(?=a)a', '(a)\\1']) {
    const r = (await client.callTool({ name: 'fs_search', arguments: { pattern, regex: true } })) as CallToolResult;
    assert.equal(r.isError, true);
    assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'pattern_unsupported', pattern);
  }
  const g = (await client.callTool({ name: 'fs_list', arguments: { path: '.', glob: '!(x).txt' } })) as CallToolResult;
  assert.equal((g.structuredContent as { error: { code: string } }).error.code, 'pattern_unsupported');
});
