// The lazy entries `hashline mcp` serves: the registry's tools under the same names, families and
// order, each loading the registry's own definition; selected by the same rule; and over MCP a call
// loads only the module of the tool it names, answering as the definition itself does.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer, type ServedTool } from '../../src/mcp/server.js';
import { ALL_TOOLS, selectTools } from '../../src/tools/registry.js';
import { isLazyTool, LAZY_TOOLS, prefetchLazyTools, selectLazyTools, type LazyTool } from '../../src/tools/tool-loaders.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('every registry tool has a lazy entry: same name, family and order, loading the same definition', async () => {
  assert.deepEqual(
    LAZY_TOOLS.map((t) => [t.name, t.family]),
    ALL_TOOLS.map((t) => [t.name, t.family]),
  );
  for (const [i, t] of LAZY_TOOLS.entries()) {
    assert.ok(isLazyTool(t));
    assert.equal(await t.load(), ALL_TOOLS[i], t.name);
    assert.equal(await t.load(), await t.load());
  }
  assert.equal(isLazyTool(ALL_TOOLS[0]!), false);
});

test('selectLazyTools follows the rule of selectTools, unknown names included', () => {
  for (const sel of [undefined, [], ['boundary'], ['hashline'], ['fs_read', 'file_hash'], ['boundary', 'fs_edit'], [' fs_list ', '']]) {
    assert.deepEqual(selectLazyTools(sel).map((t) => t.name), selectTools(sel).map((t) => t.name), JSON.stringify(sel));
  }
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return { code: (e as { code?: string }).code, message: (e as Error).message };
    }
    return undefined;
  };
  assert.equal(err(() => selectLazyTools(['nope']))?.code, 'invalid_arguments');
  assert.deepEqual(err(() => selectLazyTools(['nope'])), err(() => selectTools(['nope'])));
});

async function connect(tools: readonly ServedTool[], root: string) {
  const server = createMcpServer(await engineFor(root), tools);
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await server.connect(st);
  const client = new Client({ name: 'lazy-test', version: '0.0.0' });
  await client.connect(ct);
  return client;
}

test('over MCP, a call loads only its own tool, and answers and lists as the definitions do', async () => {
  const sb = await makeSandbox({ 'a.txt': 'one\ntwo\n' });
  const loaded: string[] = [];
  const counted: LazyTool[] = LAZY_TOOLS.map((t) => ({ name: t.name, family: t.family, load: () => (loaded.push(t.name), t.load()) }));
  const lazy = await connect(counted, sb.root);
  const eager = await connect(ALL_TOOLS, sb.root);
  try {
    const args = { name: 'fs_read', arguments: { targets: [{ path: 'a.txt' }] } };
    const a = await lazy.callTool(args);
    assert.deepEqual(loaded, ['fs_read']);
    assert.deepEqual(a, await eager.callTool(args));
    const bad = { name: 'fs_edit', arguments: { nope: 1 } };
    assert.deepEqual(await lazy.callTool(bad), await eager.callTool(bad));
    assert.deepEqual(loaded, ['fs_read', 'fs_edit']);
    assert.deepEqual(await lazy.listTools(), await eager.listTools());
  } finally {
    await lazy.close();
    await eager.close();
    await sb.cleanup();
  }
});

test('prefetchLazyTools loads every lazy entry once, one after the other, and a failing load does not stop the rest', async () => {
  const loaded: string[] = [];
  let inFlight = 0;
  let most = 0;
  const entries: LazyTool[] = LAZY_TOOLS.map((t, i) => ({
    name: t.name,
    family: t.family,
    load: async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      loaded.push(t.name);
      if (i === 1) throw new Error('a module that fails to load');
      return t.load();
    },
  }));
  await prefetchLazyTools([...entries, ALL_TOOLS[0]!]);
  assert.deepEqual(loaded, LAZY_TOOLS.map((t) => t.name));
  assert.equal(most, 1);
});
