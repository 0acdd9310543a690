// Attack: read a read-blocked `.env` through hashline's own staging names. While a batch replaces or
// removes `.env`, its old bytes sit beside it as `..env.hashline-bak-<hex>` and the new ones as
// `..env.hashline-tmp-<id>`; a block on the name `.env` alone would not cover them, so a concurrent
// search or read would print the secret. Such names are hidden from every tool and route: planted
// by hand (deterministic), each face refuses or leaves them out; and a real run over MCP stdio
// searches and lists while another process writes and deletes `.env`, and never sees the secret.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { after, before, describe, test } from 'node:test';
import { Parser, type ReadEntry } from 'tar';
import { sha256 } from '../helpers/boundary.js';
import { connectMcp, textOf, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';
import { type Daemon, q, startDaemon } from '../http/harness.js';
import { rawTar } from '../http/tar/raw-tar.js';
import { assertRefusedUntouched } from './tar-attack.js';

const SECRET = 'hunter2-staged';
const ENV = `API_KEY=${SECRET}\n`;
const STAGED = ['..env.hashline-bak-0123456789ab', '..env.hashline-tmp-4242.x.deadbeef.0', 'src/.key.ts.hashline-tmp-1.2.ab.0'];
const FILES = {
  '.env': ENV,
  'src/app.ts': 'export const app = 1;\n',
  [STAGED[0]!]: ENV,
  [STAGED[1]!]: ENV,
  [STAGED[2]!]: `export function leak() { return "${SECRET}"; }\n`,
};

const shown = (r: { structuredContent?: unknown; content?: unknown }) => `${JSON.stringify(r.content)}\n${JSON.stringify(r.structuredContent)}`;

describe('planted staging files, over MCP (a spawned hashline mcp)', () => {
  let sb: Sandbox;
  let mcp: McpSession;
  before(async () => {
    sb = await makeSandbox(FILES);
    mcp = await connectMcp(['--root', sb.root, '--read-block', '.env']);
  });
  after(async () => {
    await mcp?.close();
    await sb?.cleanup();
  });

  test('no listing, search, outline or references reply names a staging file or shows its bytes', async () => {
    const replies = [
      await mcp.call('fs_list', { depth: 5, include_ignored: true }),
      await mcp.call('fs_list', { glob: '**/*' }),
      await mcp.call('fs_search', { pattern: SECRET }),
      await mcp.call('fs_search', { pattern: 'API_KEY|leak', regex: true, glob: '**/.*' }),
      await mcp.call('fs_outline', { targets: [{ path: 'src' }] }),
      await mcp.call('fs_references', { name: 'leak' }),
    ];
    for (const r of replies) {
      const all = shown(r);
      assert.ok(!all.includes(SECRET), all);
      assert.ok(!all.includes('hashline-'), all);
    }
    assert.match(textOf(replies[0]!), /app\.ts/, 'the listing did list');
  });

  test('every tool that names a staging file is refused with path_blocked, and nothing changes', async () => {
    const snap = await snapshotTree(sb.root);
    for (const p of STAGED) {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['fs_read', { targets: [{ path: p }] }],
        ['file_read', { files: [{ filePath: p }] }],
        ['file_hash', { filePaths: [p] }],
        ['fs_search', { pattern: 'API', path: p }],
        ['fs_outline', { targets: [{ path: p }] }],
        ['fs_write', { targets: [{ path: p, text: 'x\n' }] }],
        ['file_write', { files: { [p]: { content: 'x\n' } } }],
        ['file_delete', { files: { [p]: { expectedSha256: sha256(ENV), forceReferences: true } } }],
        ['file_rename', { files: { [p]: { destination: 'stolen.txt', expectedSha256: sha256(ENV) } } }],
      ];
      for (const [tool, args] of calls) {
        const r = await mcp.call(tool, args);
        const all = shown(r);
        assert.ok(!all.includes(SECRET), `${tool} ${p}: ${all}`);
        assert.match(all, /path_blocked|names a hashline staging file/, `${tool} ${p}: ${all}`);
      }
    }
    assert.deepEqual(await snapshotTree(sb.root), snap);
  });
});

async function listTar(bytes: Uint8Array): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const parser = new Parser({
    strict: true,
    onReadEntry: (e: ReadEntry) => {
      let body = '';
      e.on('data', (c: Buffer) => (body += c.toString()));
      e.on('end', () => out.set(e.path.replace(/^\.\//, ''), body));
    },
  });
  await pipeline(Readable.from([Buffer.from(bytes)]), parser as unknown as NodeJS.WritableStream);
  return out;
}

describe('planted staging files, over HTTP (hashline serve on loopback)', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ files: FILES, readBlock: ['.env'] });
  });
  after(() => d.close());

  test('GET /v1/fs/file refuses a staging file with 403 path_blocked', async () => {
    for (const p of STAGED) {
      const g = await d.call(`/v1/fs/file?${q({ path: p })}`);
      assert.equal(g.status, 403, p);
      assert.equal(g.headers.get('hashline-error-code'), 'path_blocked');
      assert.ok(!(await g.text()).includes(SECRET));
    }
  });

  test('GET /v1/fs/tar of the root never packs a staging file', async () => {
    const r = await d.call(`/v1/fs/tar?${q({ path: '.' })}`);
    assert.equal(r.status, 200);
    const members = await listTar(new Uint8Array(await r.arrayBuffer()));
    assert.ok(members.has('src/app.ts'), [...members.keys()].join(','));
    assert.deepEqual([...members.keys()].filter((n) => n.includes('hashline-')), []);
    assert.ok(![...members.values()].some((b) => b.includes(SECRET)));
  });

  test('PUT /v1/fs/file and a PUT /v1/fs/tar member named like a staging file are refused, and write nothing', async () => {
    const put = await d.call(`/v1/fs/file?${q({ path: '.app.ts.hashline-tmp-1' })}`, { method: 'PUT', body: 'x\n' });
    assert.equal(put.status, 403);
    for (const name of ['src/.app.ts.hashline-bak-00', '.x.hashline-tmp-1/y.txt']) {
      await assertRefusedUntouched(d, rawTar([{ name: 'ok.txt', type: '0', content: 'fine\n' }, { name, type: '0', content: '1\n' }]), {
        status: 403,
        body: /names a hashline staging file/,
      });
    }
  });
});

describe('a real race over MCP stdio: one process writes and deletes .env, another searches and reads', () => {
  test('the secret never comes back', async () => {
    const sb = await makeSandbox({ 'src/app.ts': 'export const app = 1;\n' });
    const args = ['--root', sb.root, '--read-block', '.env'];
    const writer = await connectMcp(args);
    const reader = await connectMcp(args);
    try {
      let done = false;
      const seen: string[] = [];
      const readLoop = async () => {
        let rounds = 0;
        while (!done || rounds < 3) {
          rounds++;
          for (const r of await Promise.all([
            reader.call('fs_search', { pattern: SECRET }),
            reader.call('fs_list', { include_ignored: true }),
            reader.call('fs_search', { pattern: 'API_KEY', glob: '.*' }),
          ])) {
            const all = shown(r);
            if (all.includes(SECRET) || all.includes('hashline-')) seen.push(all);
          }
          // every staging name this listing could see is refused by name
          for (const n of (await fsp.readdir(sb.root)).filter((x) => x.includes('hashline-'))) {
            const r = await reader.call('file_read', { files: [{ filePath: n }] });
            if (shown(r).includes(SECRET)) seen.push(shown(r));
          }
        }
      };
      const writeLoop = async () => {
        for (let i = 0; i < 25; i++) {
          const text = `API_KEY=${SECRET}-${i}\n${'PADDING\n'.repeat(2000)}`;
          const w = await writer.call('file_write', { files: { '.env': { content: text } } });
          assert.notEqual(w.isError, true, shown(w));
          const again = `${text}# ${i}\n`;
          await writer.call('file_write', { files: { '.env': { content: again, expectedSha256: sha256(text) } } });
          const del = await writer.call('file_delete', { files: { '.env': { expectedSha256: sha256(again), forceReferences: true } } });
          assert.notEqual(del.isError, true, shown(del));
        }
        done = true;
      };
      await Promise.all([readLoop(), writeLoop()]);
      assert.deepEqual(seen, []);
      assert.deepEqual((await fsp.readdir(sb.root)).filter((x) => x.includes('hashline')), [], 'no staging file is left behind');
    } finally {
      await writer.close();
      await reader.close();
      await sb.cleanup();
    }
  });
});
