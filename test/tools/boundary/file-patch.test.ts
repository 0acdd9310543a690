// file_patch over a real `hashline mcp`: both strategies, each step of the aider cascade as an agent
// meets it, line endings and BOM kept, the candidate check, and every refusal naming the file, the
// operation, its evidence and the next call, with nothing written.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { computeTag } from '../../../src/core/text/tag.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
const read = (rel: string) => fsp.readFile(path.join(sb.root, rel), 'utf8');
const hashOf = async (rel: string) => sha256(await fsp.readFile(path.join(sb.root, rel)));

type Result = {
  filePath: string;
  preview: boolean;
  changed: boolean;
  strategy: string;
  matches: number;
  matchMethods: string[];
  operations: number;
  sha256: string;
  sourceSha256: string;
  diff?: string;
  placements?: Array<{ operation: number; method: string; startLine: number; endLine: number; similarity?: number }>;
};
type Patched = { files: Result[] };

const PY = ['class Shop:', '    def total(self, items):', '        if items:', '            return sum(items)', '        return 0', ''].join('\n');
const TS = ['export function add(a: number, b: number): number {', '  const total = a + b;', '  return total;', '}', '', 'export function sub(a: number, b: number): number {', '  return a - b;', '}', ''].join('\n');

before(async () => {
  sb = await makeSandbox({
    'shop.py': PY,
    'math.ts': TS,
    'win.txt': '\uFEFFfirst line\r\nsecond line\r\nthird line\r\n',
    'conf.json': '{\n  "name": "app",\n  "port": 8080\n}\n',
    'notes.md': '# Notes\n\nsome text\n',
    'blob.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
  });
  mcp = await connectMcp(['--root', sb.root]);
  // listed first, the client checks every result against the tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

const aider = async (rel: string, blocks: Array<{ search: string; replace: string }>, extra: Record<string, unknown> = {}) => ({
  files: { [rel]: { patchStrategy: 'aider_block', expectedSha256: await hashOf(rel), aiderBlocks: blocks, ...extra } },
});

test('aider, exact: the quoted text is replaced literally and the result reports method, lines, hashes and diff', async () => {
  const before = await hashOf('math.ts');
  const data = await ok<Patched>(mcp, 'file_patch', await aider('math.ts', [{ search: '  return a - b;\n', replace: '  return `$&${a - b}`;\n' }]));
  const r = data.files[0]!;
  assert.equal(r.filePath, 'math.ts');
  assert.equal(r.changed, true);
  assert.equal(r.preview, false);
  assert.deepEqual(r.matchMethods, ['exact']);
  assert.deepEqual(r.placements, [{ operation: 1, method: 'exact', startLine: 7, endLine: 7 }]);
  assert.equal(r.sourceSha256, before);
  assert.equal(r.sha256, await hashOf('math.ts'));
  assert.match(r.diff!, /^-  return a - b;$/m);
  assert.ok((await read('math.ts')).includes('  return `$&${a - b}`;\n'), 'no $& interpretation');
});

test('aider, whitespace and relative indentation: a loosely quoted block lands, re-indented to the file', async () => {
  const d1 = await ok<Patched>(mcp, 'file_patch', await aider('math.ts', [{ search: 'const  total = a +  b;', replace: 'const total = b + a;' }]));
  assert.deepEqual(d1.files[0]!.matchMethods, ['whitespace']);
  const d2 = await ok<Patched>(mcp, 'file_patch', await aider('shop.py', [{ search: 'if items:\n    return sum(items)\n', replace: 'if not items:\n    return 0\nreturn sum(items)\n' }]));
  assert.deepEqual(d2.files[0]!.matchMethods, ['relative-indentation']);
  assert.equal(await read('shop.py'), ['class Shop:', '    def total(self, items):', '        if not items:', '            return 0', '        return sum(items)', '        return 0', ''].join('\n'));
});

test('aider, fuzzy: an imprecise quote lands on its one close region; the similarity is reported', async () => {
  const d = await ok<Patched>(mcp, 'file_patch', await aider('shop.py', [{ search: '    def totl(self, itms):\n', replace: '    def total(self, items, tax=0):\n' }]));
  assert.deepEqual(d.files[0]!.matchMethods, ['diff-match-patch']);
  const p = d.files[0]!.placements![0]!;
  assert.deepEqual([p.startLine, p.endLine], [2, 2]);
  assert.ok(p.similarity! >= 0.5 && p.similarity! < 1);
  assert.match(await read('shop.py'), /def total\(self, items, tax=0\):/);
});

test('aider: an ambiguous block lists every candidate span; a missing one gives the closest region and its similarity; nothing is written', async () => {
  const snap = await snapshotTree(sb.root);
  const amb = await fails(mcp, 'file_patch', await aider('math.ts', [{ search: 'export function sub', replace: 'export function minus' }, { search: '(a: number, b: number): number {', replace: 'y' }]));
  assert.equal(amb.code, 'aider_ambiguous');
  assert.equal(amb.retryable, true);
  assert.equal(amb.suggestedNextCall, 'file_read');
  assert.equal(amb.details?.filePath, 'math.ts');
  assert.equal(amb.details?.operation, 2);
  assert.deepEqual(amb.details?.candidates, [{ startLine: 1, endLine: 1 }, { startLine: 6, endLine: 6 }]);
  const none = await fails(mcp, 'file_patch', await aider('math.ts', [{ search: 'export function multiply(x: string) { return x.repeat(2); }\n', replace: 'z' }]));
  assert.equal(none.code, 'aider_no_match');
  assert.equal(none.details?.operation, 1);
  const closest = none.details?.closest as { startLine: number; endLine: number; similarity: number; text: string };
  assert.ok(closest.similarity < 0.5 && closest.startLine >= 1 && typeof closest.text === 'string', JSON.stringify(closest));
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('a CRLF file with a BOM stays CRLF with its BOM; an empty search appends', async () => {
  await ok(mcp, 'file_patch', await aider('win.txt', [{ search: 'second line\n', replace: 'SECOND\nINSERTED\n' }, { search: '', replace: 'appended\n' }]));
  assert.equal(await read('win.txt'), '\uFEFFfirst line\r\nSECOND\r\nINSERTED\r\nthird line\r\nappended\r\n');
});

test('ast: one rule, one node; the match count and cardinality are enforced with the matched spans as evidence', async () => {
  const d = await ok<Patched>(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'ast', expectedSha256: await hashOf('math.ts'), astRules: [{ pattern: 'a - b', fix: 'b - a' }] } } });
  assert.equal(d.files[0]!.strategy, 'ast');
  assert.equal(d.files[0]!.matches, 1);
  assert.match(await read('math.ts'), /return `\$&\$\{b - a\}`;/);
  const count = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'ast', expectedSha256: await hashOf('math.ts'), astRules: [{ pattern: 'return $E', fix: 'return ($E)' }] } } });
  assert.equal(count.code, 'ast_match_count');
  assert.match(count.message, /^AST rule matched 2 nodes; expected 1/);
  assert.deepEqual(count.details?.spans, [{ startLine: 3, endLine: 3 }, { startLine: 7, endLine: 7 }]);
  assert.equal(count.details?.operation, 1);
  const card = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'ast', expectedSha256: await hashOf('math.ts'), astRules: [{ pattern: 'return $E', fix: 'return ($E)', expectedMatches: 2 }] } } });
  assert.equal(card.code, 'ast_rewrite_cardinality');
  const pat = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'ast', expectedSha256: await hashOf('math.ts'), astRules: [{ pattern: 'function (((', fix: 'x' }] } } });
  assert.equal(pat.code, 'pattern_error');
  assert.equal(pat.details?.filePath, 'math.ts');
  assert.equal(pat.retryable, false, 'the same pattern never parses');
});

test('a strategy is required, must fit its operations, and must be available for the file (no fallback)', async () => {
  const h = await hashOf('math.ts');
  const req = await fails(mcp, 'file_patch', { files: { 'math.ts': { expectedSha256: h, aiderBlocks: [{ search: 'a', replace: 'b' }] } } });
  assert.equal(req.code, 'patch_strategy_required');
  assert.equal(req.details?.filePath, 'math.ts');
  const args = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'ast', expectedSha256: h, aiderBlocks: [{ search: 'a', replace: 'b' }] } } });
  assert.equal(args.code, 'patch_strategy_arguments');
  const empty = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'aider_block', expectedSha256: h, aiderBlocks: [] } } });
  assert.equal(empty.code, 'patch_strategy_arguments');
  const md = await fails(mcp, 'file_patch', { files: { 'notes.md': { patchStrategy: 'ast', expectedSha256: await hashOf('notes.md'), astRules: [{ pattern: 'x', fix: 'y' }] } } });
  assert.equal(md.code, 'patch_strategy_unavailable');
  assert.equal(md.suggestedNextCall, 'file_capabilities');
  const bin = await fails(mcp, 'file_patch', { files: { 'blob.bin': { patchStrategy: 'aider_block', expectedSha256: await hashOf('blob.bin'), aiderBlocks: [{ search: 'a', replace: 'b' }] } } });
  assert.equal(bin.code, 'patch_strategy_unavailable');
  const missing = await fails(mcp, 'file_patch', { files: { 'nope.ts': { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'a', replace: 'b' }] } } });
  assert.equal(missing.code, 'not_found');
});

test('the candidate must not parse worse: a broken JSON document or TS file is refused with the position', async () => {
  const json = await fails(mcp, 'file_patch', await aider('conf.json', [{ search: '  "port": 8080\n', replace: '  "port": 8080,,\n' }]));
  assert.equal(json.code, 'candidate_parse_error');
  assert.equal(json.details?.line, 3);
  const ts = await fails(mcp, 'file_patch', await aider('math.ts', [{ search: 'export function sub(', replace: 'export function sub((' }]));
  assert.equal(ts.code, 'candidate_parse_error');
  assert.equal(ts.details?.filePath, 'math.ts');
  assert.equal(typeof ts.details?.line, 'number');
  assert.match(await read('conf.json'), /"port": 8080\n/);
});

test('the candidate check is not retryable and suggests a read, not the same patch again', async () => {
  const ts = await fails(mcp, 'file_patch', await aider('math.ts', [{ search: 'export function sub(', replace: 'export function sub((' }]));
  assert.equal(ts.code, 'candidate_parse_error');
  assert.equal(ts.retryable, false);
  assert.equal(ts.suggestedNextCall, 'file_read');
});

test('sql: a .sql file is judged by its sql policy alone, never by the generic candidate check', async () => {
  const s4 = await makeSandbox({ 'q.sql': 'SELECT 1;\n' });
  const m4 = await connectMcp(['--root', s4.root]);
  const q = () => fsp.readFile(path.join(s4.root, 'q.sql'), 'utf8');
  const patch = async (replace: string, sql?: Record<string, unknown>) => ({
    files: { 'q.sql': { patchStrategy: 'aider_block', expectedSha256: sha256(await q()), aiderBlocks: [{ search: (await q()).replace(/\n$/, ''), replace }], ...(sql ? { sql } : {}) } },
  });
  type R = { files: Array<{ sql?: { policy: string; status: string } }> };
  try {
    // MySQL (not PostgreSQL): patchable under skip and advisory; advisory reports it as invalid
    const mysql = 'SELECT `col` FROM t LIMIT 1, 2;';
    await ok(m4, 'file_patch', await patch(mysql, { policy: 'skip' }));
    assert.equal(await q(), mysql + '\n');
    const adv = await ok<R>(m4, 'file_patch', await patch(mysql + ' ', { policy: 'advisory' }));
    assert.ok(['invalid', 'unavailable'].includes(adv.files[0]!.sql?.status ?? ''), adv.files[0]!.sql?.status);
    assert.equal(await q(), mysql + ' \n');
    // a procedural DO body: patchable under no selection, skip, advisory; under required it is valid PostgreSQL
    const doBlock = "DO $$ BEGIN RAISE NOTICE 'x'; END $$;";
    await ok(m4, 'file_patch', await patch(doBlock));
    assert.equal(await q(), doBlock + '\n');
    for (const policy of ['skip', 'advisory']) await ok(m4, 'file_patch', await patch(doBlock + ` -- ${policy}`, { policy }));
    const req = await m4.client.callTool({ name: 'file_patch', arguments: await patch(doBlock, { policy: 'required' }) });
    const env = req.structuredContent as { ok: boolean; data?: R; error?: { code: string } };
    // the validator may be unavailable on a loaded machine (deadline); it never refuses valid SQL
    if (!env.ok) assert.equal(env.error?.code, 'sql_validation_unavailable');
    else assert.equal(env.data?.files[0]!.sql?.status, 'valid');
  } finally {
    await m4.close();
    await s4.cleanup();
  }
});

test('hashes: missing or stale is refused (retryable, file_hash next); the file is untouched', async () => {
  const missing = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'sub', replace: 'minus' }] } } });
  assert.equal(missing.code, 'stale_or_missing_hash');
  assert.equal(missing.details?.reason, 'missing');
  const stale = await fails(mcp, 'file_patch', { files: { 'math.ts': { patchStrategy: 'aider_block', expectedSha256: sha256('old'), aiderBlocks: [{ search: 'sub', replace: 'minus' }] } } });
  assert.equal(stale.code, 'stale_or_missing_hash');
  assert.match(stale.message, /^Stale file context: expected [0-9a-f]{64}, found [0-9a-f]{64}$/);
  assert.equal(stale.suggestedNextCall, 'file_hash');
  assert.equal(stale.retryable, true);
  assert.match(await read('math.ts'), /function sub/);
});

test('a path outside the root is refused before anything is read', async () => {
  const e = await fails(mcp, 'file_patch', { files: { '../outside/secret.txt': { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'TOP', replace: 'x' }] } } });
  assert.equal(e.code, 'path_denied');
  assert.equal(e.details?.filePath, '../outside/secret.txt');
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});

test('configuration narrows strategies and matchers; require_hash = false still checks a given hash', async () => {
  const s2 = await makeSandbox({
    'a.ts': 'const  x = 1;\n',
    'hashline.toml': '[safety]\nrequire_hash = false\n[files.patch]\nstrategies = ["aider_block"]\naider_matchers = ["exact"]\n',
  });
  const m2 = await connectMcp(['--root', s2.root]);
  try {
    const ast = await fails(m2, 'file_patch', { files: { 'a.ts': { patchStrategy: 'ast', astRules: [{ pattern: 'x', fix: 'y' }] } } });
    assert.equal(ast.code, 'patch_strategy_unavailable');
    assert.deepEqual(ast.details?.effective, ['aider_block']);
    const off = await fails(m2, 'file_patch', { files: { 'a.ts': { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'const x = 1;', replace: 'const x = 2;' }] } } });
    assert.equal(off.code, 'aider_matcher_disabled');
    assert.equal(off.details?.matcher, 'whitespace');
    const stale = await fails(m2, 'file_patch', { files: { 'a.ts': { patchStrategy: 'aider_block', expectedSha256: sha256('x'), aiderBlocks: [{ search: 'const  x = 1;', replace: 'const x = 2;' }] } } });
    assert.equal(stale.code, 'stale_or_missing_hash');
    await ok(m2, 'file_patch', { files: { 'a.ts': { patchStrategy: 'aider_block', aiderBlocks: [{ search: 'const  x = 1;', replace: 'const x = 2;' }] } } });
    assert.equal(await fsp.readFile(path.join(s2.root, 'a.ts'), 'utf8'), 'const x = 2;\n');
  } finally {
    await m2.close();
    await s2.cleanup();
  }
});

test('sql: a required check lets only valid PostgreSQL 18 through, with line and column; advisory never blocks; skip and no selection run nothing', async () => {
  // .pgsql has no grammar here, so the SQL validator (not the candidate check) is what judges it
  const s3 = await makeSandbox({ 'q.pgsql': 'select 1;\n' });
  const m3 = await connectMcp(['--root', s3.root]);
  const q = () => fsp.readFile(path.join(s3.root, 'q.pgsql'), 'utf8');
  const entry = async (sql: Record<string, unknown> | undefined, search: string, replace: string, extra: Record<string, unknown> = {}) => ({
    files: { 'q.pgsql': { patchStrategy: 'aider_block', expectedSha256: sha256(await q()), aiderBlocks: [{ search, replace }], ...(sql ? { sql } : {}), ...extra } },
  });
  type R = { files: Array<{ sql?: { policy: string; status: string; diagnostics: Array<{ line: number; column: number }>; note?: string }; previewReceipt?: string }> };
  try {
    // the worker starts on first use (loading the parser); under a loaded machine that start may
    // take a while, so it is warmed with an advisory check that changes nothing
    const warm = await ok<R>(m3, 'file_patch', await entry({}, 'select 1;', 'select 1;'));
    assert.ok(['valid', 'unavailable'].includes(warm.files[0]!.sql?.status ?? ''));
    const bad = await fails(m3, 'file_patch', await entry({ policy: 'required', dialect: 'postgresql', version: '18' }, 'select 1;', 'select 1;\nselec 2 frm;'));
    assert.equal(bad.code, 'sql_validation_failed');
    assert.equal(bad.details?.filePath, 'q.pgsql');
    const diag = (bad.details?.diagnostics as Array<{ line: number; column: number }>)[0]!;
    assert.equal(diag.line, 2);
    assert.equal(await q(), 'select 1;\n');
    const good = await ok<R>(m3, 'file_patch', await entry({ policy: 'required' }, 'select 1;', 'UPDATE t SET x = 1 RETURNING old.*, new.*;'));
    assert.deepEqual([good.files[0]!.sql?.policy, good.files[0]!.sql?.status], ['required', 'valid']);
    const adv = await ok<R>(m3, 'file_patch', await entry({}, 'UPDATE t', 'UPDAT t'));
    assert.deepEqual([adv.files[0]!.sql?.policy, adv.files[0]!.sql?.status], ['advisory', 'invalid']);
    assert.equal(adv.files[0]!.sql?.diagnostics[0]?.line, 1);
    assert.equal(await q(), 'UPDAT t SET x = 1 RETURNING old.*, new.*;\n', 'advisory never blocks');
    const skip = await ok<R>(m3, 'file_patch', await entry({ policy: 'skip' }, 'UPDAT t', 'UPDATE t'));
    assert.equal(skip.files[0]!.sql, undefined);
    const none = await ok<R>(m3, 'file_patch', await entry(undefined, 'x = 1', 'x = 2'));
    assert.equal(none.files[0]!.sql, undefined);
    const mysql = await ok<R>(m3, 'file_patch', await entry({ dialect: 'mysql' }, 'x = 2', 'x = 3'));
    assert.equal(mysql.files[0]!.sql?.status, 'unsupported');
    const reqMysql = await fails(m3, 'file_patch', await entry({ policy: 'required', dialect: 'mysql' }, 'x = 3', 'x = 4'));
    assert.equal(reqMysql.code, 'sql_validation_unavailable');
    const p = await ok<R>(m3, 'file_patch', await entry({ policy: 'advisory' }, 'x = 3', 'x = 5', { preview: true }));
    assert.equal(p.files[0]!.sql?.status, 'valid');
    const withSql = await fails(m3, 'file_patch', { files: { 'q.pgsql': { previewReceipt: p.files[0]!.previewReceipt, sql: { policy: 'skip' } } } });
    assert.equal(withSql.code, 'patch_strategy_arguments', 'the receipt binds the SQL selection: a new preview changes it');
    const committed = await ok<R>(m3, 'file_patch', { files: { 'q.pgsql': { previewReceipt: p.files[0]!.previewReceipt } } });
    assert.equal(committed.files[0]!.sql?.status, 'valid', 'the receipt carries the previewed outcome');
  } finally {
    await m3.close();
    await s3.cleanup();
  }
});

test('successive patches of a BOM and CRLF file each start from the bytes the last one wrote: bytes, diff and tag stay exact', async () => {
  await fsp.writeFile(path.join(sb.root, 'chain.txt'), '\uFEFFa\r\nb\r\nc\r\n');
  let hash = await hashOf('chain.txt');
  for (const [search, replace, want] of [
    ['b\n', 'B\n', '\uFEFFa\r\nB\r\nc\r\n'],
    ['B\n', 'B2\n', '\uFEFFa\r\nB2\r\nc\r\n'],
    ['a\n', 'A\n', '\uFEFFA\r\nB2\r\nc\r\n'],
  ] as const) {
    const data = await ok<{ files: Array<Result & { tag?: string }> }>(mcp, 'file_patch', {
      files: { 'chain.txt': { patchStrategy: 'aider_block', expectedSha256: hash, aiderBlocks: [{ search, replace }] } },
    });
    const f = data.files[0]!;
    assert.equal(await read('chain.txt'), want);
    assert.equal(f.sourceSha256, hash);
    hash = await hashOf('chain.txt');
    assert.equal(f.sha256, hash);
    assert.match(f.diff!, new RegExp(`-${search.trim()}\\n\\+${replace.trim()}\\n`));
    assert.equal(f.tag, computeTag(want.slice(1).replace(/\r\n/g, '\n')));
  }
});
