// The context tax: what the tool list costs an agent on every turn, measured with the official SDK
// client over the spawned server. The model-visible definitions (name + description + inputSchema as
// JSON) plus the instructions stay within 12,000 bytes, the whole tools/list within 24,000; every
// tool keeps a description, and every input field (with its type, enum and default) is still listed.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as z from 'zod';
import { toolListing } from '../../src/mcp/tool-listing.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { measureServer, type ContextCost, type ListedTool } from '../helpers/context-cost.js';
import { CLI_SOURCE } from '../helpers/mcp-client.js';

const MODEL_VISIBLE_BUDGET = 12_000;
const WHOLE_LIST_BUDGET = 24_000;

/** Every input field of every tool, as listed (`[]` an array's items, `*` a record's values). */
const INPUT_FIELDS: Record<string, string> = {
  file_hash: 'filePaths',
  file_capabilities: 'filePaths',
  file_read: 'files files[].filePath files[].mode files[].range files[].range.start files[].range.end files[].lines files[].maxBytes files[].byteOffset files[].language files[].selectors files[].symbols',
  file_write: 'files files.*.content files.*.expectedSha256 files.*.chattr files.*.chattr.chmod files.*.chattr.chown files.*.chattr.chown.uid files.*.chattr.chown.gid',
  file_patch:
    'files files.*.patchStrategy files.*.astRules files.*.astRules[].pattern files.*.astRules[].fix files.*.astRules[].expectedMatches files.*.aiderBlocks files.*.aiderBlocks[].search files.*.aiderBlocks[].replace files.*.expectedSha256 files.*.chattr files.*.chattr.chmod files.*.chattr.chown files.*.chattr.chown.uid files.*.chattr.chown.gid files.*.preview files.*.previewReceipt files.*.sql files.*.sql.policy files.*.sql.dialect files.*.sql.version files.*.sql.variant',
  file_rename: 'files files.*.destination files.*.expectedSha256',
  file_chattr: 'files files.*.chattr files.*.chattr.chmod files.*.chattr.chown files.*.chattr.chown.uid files.*.chattr.chown.gid files.*.expectedSha256',
  file_delete: 'files files.*.expectedSha256 files.*.forceReferences',
  fs_read: 'targets targets[].path targets[].line targets[].line_range targets[].symbol targets[].full',
  fs_write: 'targets targets[].path targets[].text targets[].file_hash',
  fs_ast_edit: 'ops ops[].pat ops[].out paths max_files',
  fs_edit: 'targets targets[].path targets[].file_hash targets[].ops reply',
  fs_rollback: 'path hash',
  fs_list: 'path depth glob include_ignored max_entries',
  fs_search: 'pattern regex case_sensitive path glob context max_results',
  fs_outline: 'targets targets[].path max_results',
  fs_references: 'name path kind max_results',
};

type Schema = { type?: unknown; enum?: unknown; default?: unknown; properties?: Record<string, Schema>; items?: Schema | boolean; additionalProperties?: Schema | boolean };

/** Each field's path and the schema at it. */
function fields(s: Schema, prefix = ''): Array<[string, Schema]> {
  const out: Array<[string, Schema]> = [];
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    out.push([prefix + k, v]);
    if (v.properties) out.push(...fields(v, `${prefix}${k}.`));
    if (typeof v.items === 'object' && v.items.properties) out.push(...fields(v.items, `${prefix}${k}[].`));
    if (typeof v.additionalProperties === 'object' && v.additionalProperties.properties) out.push(...fields(v.additionalProperties, `${prefix}${k}.*.`));
  }
  return out;
}

let root: string;
let listed: { cost: ContextCost; tools: ListedTool[] };

before(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'hashline-budget-'));
  listed = await measureServer(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'mcp', '--root', root, '--history', 'off']);
});

after(() => rmSync(root, { recursive: true, force: true }));

test(`every tool listed: definitions plus instructions ≤ ${MODEL_VISIBLE_BUDGET} B, the whole tools/list ≤ ${WHOLE_LIST_BUDGET} B`, () => {
  const { cost } = listed;
  assert.equal(cost.tools, ALL_TOOLS.length);
  assert.ok(cost.modelVisible <= MODEL_VISIBLE_BUDGET, `model-visible ${cost.modelVisible} B (${cost.modelVisibleTokens} o200k tokens)`);
  assert.ok(cost.wholeList <= WHOLE_LIST_BUDGET, `whole tools/list ${cost.wholeList} B`);
});

test('every tool has a description, and every input field is still listed', () => {
  assert.deepEqual(listed.tools.map((t) => t.name).sort(), Object.keys(INPUT_FIELDS).sort());
  for (const t of listed.tools) {
    assert.ok((t.description ?? '').trim().length > 0, `${t.name}: description`);
    assert.deepEqual(fields(t.inputSchema as Schema).map(([p]) => p), INPUT_FIELDS[t.name]!.split(' '), `${t.name}: input fields`);
  }
});

test('the listed input schema keeps each field\'s type, enum and default as zod emits them', () => {
  for (const tool of ALL_TOOLS) {
    const full = new Map(fields(z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Schema));
    for (const [p, s] of fields(toolListing(tool).inputSchema as Schema)) {
      const of = full.get(p)!;
      assert.deepEqual([s.type, s.enum, s.default], [of.type, of.enum, of.default], `${tool.name} ${p}`);
    }
  }
});

test('the example in each description is valid input for its tool (`<sha256>` standing for a hash)', () => {
  for (const tool of ALL_TOOLS) {
    const example = /^Example: (\{.*\})$/m.exec(tool.description);
    assert.ok(example, `${tool.name}: an example on its own line`);
    const parsed = tool.input.safeParse(JSON.parse(example[1]!.replaceAll('<sha256>', 'a'.repeat(64))));
    assert.ok(parsed.success, `${tool.name}: ${parsed.error?.message}`);
  }
});
