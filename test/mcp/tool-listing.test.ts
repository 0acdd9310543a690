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

// Keywords (or forms of one) whose meaning differs between JSON Schema draft-07 (the SDK 1.x
// client's Ajv) and 2020-12 (the 2.x client's): a tuple's prefixItems + `items: false` rejects every
// item under draft-07; `items: [...]` is a tuple in draft-07 and an error in 2020-12.
const DRAFT_DEPENDENT = ['prefixItems', '$defs', 'definitions', '$ref', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$anchor', 'unevaluatedProperties', 'unevaluatedItems', 'dependentRequired', 'dependentSchemas', 'dependencies', 'additionalItems', 'minContains', 'maxContains', '$schema'];

function draftDependentForms(schema: unknown, at = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => draftDependentForms(s, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    // under `properties` the keys are field names, not keywords
    if (at.endsWith('/properties')) {
      out.push(...draftDependentForms(value, `${at}/${key}`));
      continue;
    }
    if (DRAFT_DEPENDENT.includes(key)) out.push(`${at}/${key}`);
    if (key === 'items' && (typeof value === 'boolean' || Array.isArray(value))) out.push(`${at}/items: ${JSON.stringify(value)}`);
    out.push(...draftDependentForms(value, `${at}/${key}`));
  }
  return out;
}

test('no input or output schema uses a form whose meaning differs between draft-07 and 2020-12', () => {
  for (const t of ALL_TOOLS) {
    const entry = toolListing(t);
    assert.deepEqual(draftDependentForms(entry.inputSchema), [], `${t.name} input`);
    assert.deepEqual(draftDependentForms(entry.outputSchema), [], `${t.name} output`);
  }
  assert.deepEqual(draftDependentForms({ type: 'array', prefixItems: [{ type: 'number' }], items: false }), ['/prefixItems', '/items: false'], 'the check sees a zod tuple');
});
