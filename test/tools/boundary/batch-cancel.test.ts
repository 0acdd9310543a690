// Cancellation of a running batch: the official SDK client cancels a 50-file file_rename in the
// middle (AbortSignal → notifications/cancelled) on a real `hashline mcp` slowed by the batch test
// seam; the batch stops at the next file, every file is back where it was, and progress arrived
// for each file done. In-process, the answer of a cancelled batch is `aborted` with what was put back.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runTool } from '../../../src/mcp/server.js';
import { fileDeleteTool } from '../../../src/tools/boundary/file-delete.js';
import type { ToolDefinition } from '../../../src/tools/tool.js';
import { ok, sha256 } from '../../helpers/boundary.js';
import { engineFor } from '../../helpers/engine.js';
import { connectMcp } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree } from '../../helpers/tmp-tree.js';

const fifty = () => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.txt`, `file ${i}\n`]));

test('a 50-file rename cancelled by the client in the middle: stopped at a file boundary, everything moved back', async () => {
  const files = fifty();
  const sb = await makeSandbox(files);
  process.env.HASHLINE_TEST_BATCH_STEP_MS = '60';
  const server = await connectMcp(['--root', sb.root]);
  delete process.env.HASHLINE_TEST_BATCH_STEP_MS;
  try {
    const before = await snapshotTree(sb.root);
    const mode0 = (await fsp.stat(path.join(sb.root, 'src/f00.txt'))).mode & 0o777;
    const ac = new AbortController();
    const progress: Array<{ progress: number; total?: number }> = [];
    const call = server.client.callTool(
      {
        name: 'file_rename',
        arguments: { files: Object.fromEntries(Object.entries(files).map(([p, c]) => [p, { destination: p.replace('src/', 'moved/'), expectedSha256: sha256(c) }])) },
      },
      undefined,
      {
        signal: ac.signal,
        onprogress: (p) => {
          progress.push({ progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }) });
          if (p.progress === 25) ac.abort();
        },
      },
    );
    await assert.rejects(call, (e: Error) => /abort/i.test(`${e.name} ${e.message}`));
    assert.deepEqual(progress, Array.from({ length: 25 }, (_, i) => ({ progress: i + 1, total: 50 })));
    // A call that needs the same locks runs only once the cancelled batch has rolled back and let go.
    await ok(server, 'file_chattr', { files: { 'src/f00.txt': { chattr: { chmod: mode0 }, expectedSha256: sha256(files['src/f00.txt']!) } } });
    assert.deepEqual(await snapshotTree(sb.root), before);
    // and the same batch, not cancelled, goes through on this server
    const done = await ok<{ files: unknown[] }>(server, 'file_rename', {
      files: Object.fromEntries(Object.entries(files).slice(0, 3).map(([p, c]) => [p, { destination: p.replace('src/', 'moved/'), expectedSha256: sha256(c) }])),
    });
    assert.equal(done.files.length, 3);
  } finally {
    await server.close();
    await sb.cleanup();
  }
});

test('the answer of a batch cancelled part-way is aborted, naming what was put back', async () => {
  const files = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`d/n${i}.txt`, `note ${i}\n`]));
  const sb = await makeSandbox(files);
  try {
    const engine = await engineFor(sb.root);
    const before = await snapshotTree(sb.root);
    const ac = new AbortController();
    const result = await runTool(engine, fileDeleteTool as unknown as ToolDefinition, { files: Object.fromEntries(Object.entries(files).map(([p, c]) => [p, { expectedSha256: sha256(c) }])) }, {
      signal: ac.signal,
      progress: (p) => {
        if (p.progress === 3) ac.abort();
      },
    });
    assert.equal(result.isError, true);
    const env = result.structuredContent as { ok: boolean; error: { code: string; retryable: boolean; details: Record<string, unknown> } };
    assert.equal(env.error.code, 'aborted');
    assert.equal(env.error.retryable, true);
    assert.equal(env.error.details.rolledBack, true);
    assert.deepEqual(env.error.details.restored, ['d/n0.txt', 'd/n1.txt', 'd/n2.txt']);
    assert.deepEqual(await snapshotTree(sb.root), before);
  } finally {
    await sb.cleanup();
  }
});
