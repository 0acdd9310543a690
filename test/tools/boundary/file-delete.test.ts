// file_delete over a real `hashline mcp`: an importer in each language blocks a delete (with its
// line), comments and strings do not, forced deletes name what they overrode, a batch may delete a
// file with its only importer, scans that cannot be proven (a language without a scanner, a
// grammar not installed) and AST reads excluded by configuration, the read policy (an importer the
// agent may not read is never read, and leaves the scan no proof), denied paths, hashes, empty
// parents and fs_rollback.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

const TREE: Record<string, string> = {
  'ts/util.ts': 'export const u = 1;\n',
  'ts/a.ts': "import { u } from './util';\nexport const a = u;\n",
  'ts/mention.ts': "// import { u } from './util'\nexport const s = './util';\n",
  'js/lib.js': 'module.exports = 1;\n',
  'js/user.cjs': "'use strict';\nconst lib = require('./lib');\n",
  'js/dyn.mjs': 'export default 1;\n',
  'js/load.mjs': "const m = await import('./dyn.mjs');\n",
  'py/pkg/__init__.py': '',
  'py/pkg/helpers.py': 'X = 1\n',
  'py/app.py': '"""from pkg import nothing"""\nfrom pkg import helpers\n',
  'py/pkg/rel.py': 'import os\nfrom .helpers import X\n',
  'rs/Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\n',
  'rs/src/main.rs': 'mod net;\nmod util;\nfn main() {}\n',
  'rs/src/net.rs': '// mod util;\nuse crate::util::f;\n',
  'rs/src/util.rs': 'pub fn f() {}\n',
  'go/go.mod': 'module example.com/demo\n\ngo 1.22\n',
  'go/store/a.go': 'package store\n',
  'go/store/b.go': 'package store\n',
  'go/cmd/main.go': 'package main\n\nimport (\n\t"fmt"\n\t"example.com/demo/store"\n)\n',
  'css/base.css': 'body { margin: 0 }\n',
  'css/site.css': '@import "base.css";\n',
  'scss/_theme.scss': '$c: red;\n',
  'scss/app.scss': '// @use "nothing";\n@use "theme";\n',
  'pair/lib.ts': 'export const l = 1;\n',
  'pair/only.ts': "export { l } from './lib';\n",
  'java/A.java': 'class A {}\n',
  'shared/x.ts': 'export const x = 1;\n',
  'secret/readme.txt': 'no source here until the read-policy test\n',
  'locked/y.txt': 'y\n',
  'nested/deeper/note.txt': 'note\n',
  'notes.txt': 'notes\n',
};

let sb: Sandbox;
let mcp: McpSession;
const at = (rel: string) => path.join(sb.root, rel);
const entry = (rel: string, extra: Record<string, unknown> = {}) => ({ [rel]: { expectedSha256: sha256(TREE[rel]!), ...extra } });

type Deleted = {
  files: Array<{ filePath: string; sha256: string; referencesChecked: boolean; forcedImporters: Array<{ filePath: string; line: number }>; referenceVerificationBypassed: boolean; inHistory: boolean }>;
  removedDirectories: string[];
};

before(async () => {
  sb = await makeSandbox(TREE);
  mcp = await connectMcp(['--root', sb.root, '--read-block', at('secret'), '--block', at('locked')]);
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

test('an importer in each language blocks the delete, listed with its line; comments and strings do not count', async () => {
  const snap = await snapshotTree(sb.root);
  const cases: Array<[string, string[]]> = [
    ['ts/util.ts', ['ts/a.ts:1']],
    ['js/lib.js', ['js/user.cjs:2']],
    ['js/dyn.mjs', ['js/load.mjs:1']],
    ['py/pkg/helpers.py', ['py/app.py:2', 'py/pkg/rel.py:2']],
    ['rs/src/net.rs', ['rs/src/main.rs:1']],
    ['rs/src/util.rs', ['rs/src/main.rs:2', 'rs/src/net.rs:2']],
    ['css/base.css', ['css/site.css:1']],
    ['scss/_theme.scss', ['scss/app.scss:2']],
  ];
  for (const [target, importers] of cases) {
    const e = await fails(mcp, 'file_delete', { files: entry(target) });
    assert.equal(e.code, 'file_referenced', target);
    assert.equal(e.details?.filePath, target);
    const refs = e.details?.references as Array<{ filePath: string; importers: Array<{ filePath: string; line: number }> }>;
    assert.deepEqual(refs.map((r) => [r.filePath, r.importers.map((i) => `${i.filePath}:${i.line}`)]), [[target, importers]], target);
    for (const i of importers) assert.ok(e.message.includes(i), `${target}: the message lists ${i}`);
  }
  // Go: a package is imported, so only deleting its last file is blocked
  const both = await fails(mcp, 'file_delete', { files: { ...entry('go/store/a.go'), ...entry('go/store/b.go') } });
  assert.equal(both.code, 'file_referenced');
  assert.match(both.message, /go\/cmd\/main\.go:5/);
  assert.deepEqual(await snapshotTree(sb.root), snap);
  const one = await ok<Deleted>(mcp, 'file_delete', { files: entry('go/store/b.go') });
  assert.deepEqual(one.files[0]!.forcedImporters, []);
  await assert.rejects(fsp.stat(at('go/store/b.go')));
});

test('forceReferences deletes anyway, names the importers it overrode, and fs_rollback recreates the file', async () => {
  const read = (await mcp.call('fs_read', { targets: [{ path: 'ts/util.ts' }] })) as CallToolResult;
  const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  const data = await ok<Deleted>(mcp, 'file_delete', { files: entry('ts/util.ts', { forceReferences: true }) });
  assert.deepEqual(data.files, [
    { filePath: 'ts/util.ts', sha256: sha256(TREE['ts/util.ts']!), referencesChecked: true, forcedImporters: [{ filePath: 'ts/a.ts', line: 1 }], referenceVerificationBypassed: false, inHistory: true },
  ]);
  await assert.rejects(fsp.stat(at('ts/util.ts')));
  const back = (await mcp.call('fs_rollback', { path: 'ts/util.ts', hash: tag })) as CallToolResult;
  assert.notEqual(back.isError, true, JSON.stringify(back.structuredContent));
  assert.equal(await fsp.readFile(at('ts/util.ts'), 'utf8'), TREE['ts/util.ts']);
});

test('a batch deleting a file and its only importer goes through, and removes the directory it empties', async () => {
  const data = await ok<Deleted>(mcp, 'file_delete', { files: { ...entry('pair/lib.ts'), ...entry('pair/only.ts') } });
  assert.deepEqual(data.files.map((f) => [f.filePath, f.forcedImporters.length]), [['pair/lib.ts', 0], ['pair/only.ts', 0]]);
  assert.deepEqual(data.removedDirectories, ['pair']);
  await assert.rejects(fsp.stat(at('pair')));
  const read = (await mcp.call('fs_read', { targets: [{ path: 'nested/deeper/note.txt' }] })) as CallToolResult;
  const tag = (read.structuredContent as { results: Array<{ file_hash: string }> }).results[0]!.file_hash;
  const nested = await ok<Deleted>(mcp, 'file_delete', { files: entry('nested/deeper/note.txt') });
  assert.deepEqual(nested.removedDirectories, ['nested', 'nested/deeper']);
  await assert.rejects(fsp.stat(at('nested')));
  // fs_rollback recreates the deleted file with the directories its delete removed
  const back = (await mcp.call('fs_rollback', { path: 'nested/deeper/note.txt', hash: tag })) as CallToolResult;
  assert.notEqual(back.isError, true, JSON.stringify(back.structuredContent));
  assert.equal(await fsp.readFile(at('nested/deeper/note.txt'), 'utf8'), 'note\n');
});

test('a language without an import scanner cannot be proven unreferenced: refused unless forced, then reported as bypassed', async () => {
  const e = await fails(mcp, 'file_delete', { files: entry('java/A.java') });
  assert.equal(e.code, 'reference_scan_incomplete');
  assert.match(e.message, /no import scanner for java/);
  assert.ok(await fsp.stat(at('java/A.java')));
  const data = await ok<Deleted>(mcp, 'file_delete', { files: entry('java/A.java', { forceReferences: true }) });
  assert.equal(data.files[0]!.referenceVerificationBypassed, true);
  assert.deepEqual(data.files[0]!.forcedImporters, []);
});

test('the read policy holds: an importer the agent may not read is never read or named, and leaves the scan no proof; blocked paths stay', async () => {
  // a read-blocked TypeScript file could import shared/x.ts: the scan may not read it
  await fsp.writeFile(at('secret/uses.ts'), "import { x } from '../shared/x';\n");
  const unproven = await fails(mcp, 'file_delete', { files: entry('shared/x.ts') });
  assert.equal(unproven.code, 'reference_verification_failed');
  assert.doesNotMatch(JSON.stringify(unproven), /secret/);
  const data = await ok<Deleted>(mcp, 'file_delete', { files: entry('shared/x.ts', { forceReferences: true }) });
  assert.doesNotMatch(JSON.stringify(data), /secret/);
  assert.equal(data.files[0]!.referenceVerificationBypassed, true);
  assert.equal(await fsp.readFile(at('secret/uses.ts'), 'utf8'), "import { x } from '../shared/x';\n");
  const denied = await fails(mcp, 'file_delete', { files: entry('locked/y.txt', { forceReferences: true }) });
  assert.equal(denied.code, 'path_denied');
  const outside = await fails(mcp, 'file_delete', { files: { '../outside/secret.txt': { expectedSha256: sha256('TOP SECRET\n'), forceReferences: true } } });
  assert.equal(outside.code, 'path_denied');
  assert.equal(await fsp.readFile(at('locked/y.txt'), 'utf8'), 'y\n');
  assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
});

test('hashes are required and checked; a directory and a missing file are refused; nothing changes', async () => {
  const snap = await snapshotTree(sb.root);
  const missing = await fails(mcp, 'file_delete', { files: { 'notes.txt': {} } });
  assert.equal(missing.code, 'stale_or_missing_hash');
  const stale = await fails(mcp, 'file_delete', { files: { 'notes.txt': { expectedSha256: sha256('old') } } });
  assert.equal(stale.details?.reason, 'mismatch');
  const dir = await fails(mcp, 'file_delete', { files: { css: { expectedSha256: sha256('') } } });
  assert.equal(dir.code, 'is_directory');
  const gone = await fails(mcp, 'file_delete', { files: { 'nope.ts': { expectedSha256: sha256('') } } });
  assert.equal(gone.code, 'not_found');
  await fsp.symlink('notes.txt', at('notes-link.txt'));
  const link = await fails(mcp, 'file_delete', { files: { 'notes-link.txt': { expectedSha256: sha256(TREE['notes.txt']!) } } });
  assert.equal(link.code, 'not_regular_file');
  await fsp.unlink(at('notes-link.txt'));
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

describe('servers configured otherwise', () => {
  test('a grammar that is not installed makes the scan unprovable for files it would have to parse', async () => {
    const other = await makeSandbox(TREE);
    process.env.HASHLINE_TEST_WITHOUT_GRAMMARS = 'python';
    const server = await connectMcp(['--root', other.root]);
    delete process.env.HASHLINE_TEST_WITHOUT_GRAMMARS;
    try {
      const e = await fails(server, 'file_delete', { files: entry('py/pkg/helpers.py') });
      assert.equal(e.code, 'reference_scan_incomplete');
      assert.match(e.message, /py\/app\.py: the python grammar is not installed/);
      // the script grammars are built in: still scanned
      assert.equal((await fails(server, 'file_delete', { files: entry('ts/util.ts') })).code, 'file_referenced');
      const forced = await ok<Deleted>(server, 'file_delete', { files: entry('py/pkg/helpers.py', { forceReferences: true }) });
      assert.equal(forced.files[0]!.referenceVerificationBypassed, true);
      assert.deepEqual(forced.files[0]!.forcedImporters, []);
    } finally {
      await server.close();
      await other.cleanup();
    }
  });

  test('with AST reads excluded, deleting a file a grammar covers is reference_verification_failed unless forced', async () => {
    const other = await makeSandbox(TREE);
    const config = path.join(other.base, 'ops.toml');
    await fsp.writeFile(config, '[files.read]\nmodes = ["text"]\n');
    const server = await connectMcp(['--root', other.root, '--config', config]);
    try {
      const e = await fails(server, 'file_delete', { files: entry('ts/a.ts') });
      assert.equal(e.code, 'reference_verification_failed');
      assert.equal(e.details?.filePath, 'ts/a.ts');
      const forced = await ok<Deleted>(server, 'file_delete', { files: entry('ts/a.ts', { forceReferences: true }) });
      assert.deepEqual([forced.files[0]!.referencesChecked, forced.files[0]!.referenceVerificationBypassed], [false, true]);
      const plain = await ok<Deleted>(server, 'file_delete', { files: entry('notes.txt') });
      assert.deepEqual([plain.files[0]!.referencesChecked, plain.files[0]!.referenceVerificationBypassed], [false, false]);
    } finally {
      await server.close();
      await other.cleanup();
    }
  });
});
