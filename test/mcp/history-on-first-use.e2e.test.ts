// Over a spawned `hashline mcp`: `initialize` and `tools/list` touch nothing in the state
// directory, the first tool call that records makes the store, and what `initialize` and
// file_capabilities say about the history is what they said when the store was built at start:
// nothing when the durable store will be used, the fallback's warning when it will not. (That the
// store object itself waits for its first use is pinned in test/io/history/lazy-history.test.ts.)

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { historyStoreFor } from '../../src/io/history/history-file.js';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox | undefined;
let state: string | undefined;
afterEach(async () => {
  await sb?.cleanup();
  if (state) rmSync(state, { recursive: true, force: true });
  sb = undefined;
  state = undefined;
});

/** Connects with XDG_STATE_HOME set to `stateHome` for the spawned server only. */
async function connectWithState(root: string, stateHome: string) {
  const saved = process.env.XDG_STATE_HOME;
  process.env.XDG_STATE_HOME = stateHome;
  try {
    return await connectMcp(['--root', root]);
  } finally {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
  }
}

test('tools/list is answered without building the store; the first read builds it', async () => {
  sb = await makeSandbox({ 'a.txt': 'one\n' });
  state = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const s = await connectWithState(sb.root, state);
  try {
    assert.equal((await s.client.listTools()).tools.length > 0, true);
    assert.doesNotMatch(s.client.getInstructions() ?? '', /History:/);
    assert.deepEqual(readdirSync(state), [], 'nothing made in the state directory before a tool records');
    const read = await s.call('fs_read', { targets: [{ path: 'a.txt' }] });
    assert.equal(read.isError, undefined, textOf(read));
    assert.equal(existsSync(historyStoreFor(sb.root, state)), true);
    const caps = await s.call('file_capabilities', { filePaths: ['a.txt'] });
    const history = (caps.structuredContent as { data: { history: unknown } }).data.history;
    assert.deepEqual(history, { store: 'sqlite', durable: true });
  } finally {
    await s.close();
  }
});

test('a fallback decided at start is still announced in initialize', async () => {
  sb = await makeSandbox({ 'a.txt': 'one\n' });
  // the state directory inside the root: the server keeps the history in memory, and says so
  const s = await connectWithState(sb.root, path.join(sb.root, '.state'));
  try {
    assert.match(s.client.getInstructions() ?? '', /\n\nHistory: history store .* would be inside the project; using the in-memory history/);
    const caps = await s.call('file_capabilities', { filePaths: ['a.txt'] });
    const history = (caps.structuredContent as { data: { history: { store: string; warning?: string } } }).data.history;
    assert.equal(history.store, 'memory');
    assert.match(s.client.getInstructions() ?? '', new RegExp(`History: ${history.warning!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`));
  } finally {
    await s.close();
  }
});
