// tools/list entries: the bundled CLI lists what it was built with (a listing made when it was
// bundled, see src/mcp/tool-listing.ts), which must equal what the sources convert at run time;
// a tool that is not one of the registry's definitions is always converted from its own schemas.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as z from 'zod';
import { listingJson, listTools, toolListing } from '../../src/mcp/tool-listing.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { defineTool } from '../../src/tools/tool.js';
import { CLI_SOURCE, REPO } from '../helpers/mcp-client.js';

async function listed(args: string[], root: string): Promise<unknown> {
  const client = new Client({ name: 'hashline-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args, 'mcp', '--root', root], cwd: REPO, stderr: 'ignore' }));
  try {
    return await client.listTools();
  } finally {
    await client.close();
  }
}

test('the shipped bin lists exactly what the sources convert at run time', async () => {
  const bin = path.join(REPO, 'bin/hashline.mjs');
  assert.ok(existsSync(bin), 'bin/hashline.mjs is missing: run `npm run build`');
  const root = mkdtempSync(path.join(os.tmpdir(), 'hashline-listing-'));
  try {
    const fromBin = await listed([bin], root);
    const fromSource = await listed(['--import', 'tsx', CLI_SOURCE], root);
    assert.deepEqual(fromBin, fromSource);
    assert.equal((fromBin as { tools: unknown[] }).tools.length, ALL_TOOLS.length);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the listing made for the bundle is each tool converted one by one', () => {
  const all = JSON.parse(listingJson(ALL_TOOLS)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(all), ALL_TOOLS.map((t) => t.name));
  for (const t of ALL_TOOLS) assert.deepEqual(all[t.name], JSON.parse(JSON.stringify(toolListing(t))));
});

test('a tool that is not the registry definition of its name is converted from its own schemas', () => {
  const own = defineTool({
    name: 'fs_read',
    family: 'hashline',
    title: 'a stand-in',
    description: 'not the registry tool',
    input: z.strictObject({ only: z.string() }),
    output: z.object({ done: z.boolean() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async () => ({ structured: { done: true }, text: '' }),
  });
  const [entry] = listTools([own as never], ALL_TOOLS);
  assert.equal(entry!.title, 'a stand-in');
  assert.deepEqual(Object.keys((entry!.inputSchema as unknown as { properties: object }).properties), ['only']);
});
