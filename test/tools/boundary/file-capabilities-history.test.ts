// file_capabilities reports which history store keeps versions for fs_rollback: the durable SQLite
// store by default, memory or off when asked, and, when the durable store could not be used, the
// in-memory fallback with the warning that says why. Real engines over temp trees.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { callTool } from '../../../src/api/call-tool.js';
import { mergeConfig } from '../../../src/core/config/config.js';
import { createEngine } from '../../../src/tools/engine.js';
import { fileCapabilitiesTool } from '../../../src/tools/boundary/file-capabilities.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

async function historyOf(store: string | undefined, options: Parameters<typeof createEngine>[1] = {}) {
  const sb = await makeSandbox({ 'a.txt': 'a\n' });
  const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [], ...(store ? { history: store } : {}) }), { report: () => undefined, ...options });
  try {
    const reply = await callTool(engine, fileCapabilitiesTool, { filePaths: ['a.txt'] });
    assert.equal(reply.ok, true);
    return (reply.data as { history: { store: string; durable: boolean; warning?: string } }).history;
  } finally {
    await engine.history.close();
    await sb.cleanup();
  }
}

test('the default durable store is reported as sqlite, durable, without a warning', async () => {
  assert.deepEqual(await historyOf(undefined), { store: 'sqlite', durable: true });
});

test('memory and off are reported as such', async () => {
  assert.deepEqual(await historyOf('memory'), { store: 'memory', durable: false });
  assert.deepEqual(await historyOf('off'), { store: 'off', durable: false });
});

test('a store that cannot load: the in-memory fallback and its warning', async () => {
  const h = await historyOf(undefined, { loadSqlite: () => ({ error: 'no native module here' }) });
  assert.equal(h.store, 'memory');
  assert.equal(h.durable, false);
  assert.match(h.warning ?? '', /SQLite history unavailable \(no native module here\)/);
});
