// Formatters of file_patch over a real `hashline mcp` with a [format] configuration: a tiny script
// formatter in stdout mode and in in_place mode (on a staged copy outside the tree, never the live
// file), formatting at commit only (a preview shows the strategy's change; its receipt commit is
// formatted), a failing formatter (format_failed with its stderr, nothing written, the whole batch
// refused) and a missing one (a clear error, nothing downloaded). Off by default.

import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fails, ok, sha256 } from '../../helpers/boundary.js';
import { connectMcp, REPO, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../../helpers/tmp-tree.js';

const FIX = path.join(REPO, 'test/fixtures/formatters');
const node = JSON.stringify(process.execPath);
const fixture = (name: string) => JSON.stringify(path.join(FIX, name));

let sb: Sandbox;
let mcp: McpSession;
let log: string;
const read = (rel: string) => fsp.readFile(path.join(sb.root, rel), 'utf8');
const hashOf = async (rel: string) => sha256(await fsp.readFile(path.join(sb.root, rel)));
type Result = { sha256: string; formatter?: string; diff?: string; previewReceipt?: string; changed: boolean };

before(async () => {
  sb = await makeSandbox({
    'a.txt': 'one\ntwo   \n',
    'b.txt': 'keep\n',
    'doc.md': '# Title\n',
    'bad/x.txt': 'x\n',
    'missing/y.txt': 'y\n',
    'plain.log': 'stay   \n',
  });
  log = path.join(sb.base, 'staged.log');
  await fsp.writeFile(
    path.join(sb.root, 'hashline.toml'),
    [
      '[format]',
      'enabled = true',
      '[[format.formatters]]',
      'name = "broken"',
      'globs = ["bad/**"]',
      `command = [${node}, ${fixture('failing.mjs')}]`,
      'mode = "stdout"',
      '[[format.formatters]]',
      'globs = ["missing/**"]',
      'command = ["hashline-no-such-formatter", "--stdin"]',
      'mode = "stdout"',
      '[[format.formatters]]',
      'name = "tidy"',
      'globs = ["*.txt"]',
      `command = [${node}, ${fixture('tidy-stdout.mjs')}, "{file}"]`,
      'mode = "stdout"',
      '[[format.formatters]]',
      'name = "tidy-in-place"',
      'globs = ["**/*.md"]',
      `command = [${node}, ${fixture('tidy-in-place.mjs')}, "{file}", ${JSON.stringify(log)}]`,
      'mode = "in_place"',
      '',
    ].join('\n'),
  );
  mcp = await connectMcp(['--root', sb.root]);
  // listed first, the client checks every result against the tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp.close();
  await sb.cleanup();
});

const patch = async (rel: string, search: string, replace: string, extra: Record<string, unknown> = {}) => ({
  files: { [rel]: { patchStrategy: 'aider_block', expectedSha256: await hashOf(rel), aiderBlocks: [{ search, replace }], ...extra } },
});

test('stdout mode: the commit is formatted and the result says by which formatter', async () => {
  const d = await ok<{ files: Result[] }>(mcp, 'file_patch', await patch('a.txt', 'one\n', 'ONE  \n\n\n\n'));
  assert.equal(await read('a.txt'), 'ONE\n\ntwo\n');
  assert.equal(d.files[0]!.formatter, 'tidy');
  assert.equal(d.files[0]!.sha256, sha256('ONE\n\ntwo\n'));
});

test('a preview is not formatted; its receipt commit is', async () => {
  const p = await ok<{ files: Result[] }>(mcp, 'file_patch', await patch('b.txt', 'keep\n', 'kept   \n', { preview: true }));
  assert.equal(p.files[0]!.sha256, sha256('kept   \n'), 'the preview is the strategy\'s change only');
  assert.equal(p.files[0]!.formatter, undefined);
  assert.equal(await read('b.txt'), 'keep\n');
  const c = await ok<{ files: Result[] }>(mcp, 'file_patch', { files: { 'b.txt': { previewReceipt: p.files[0]!.previewReceipt } } });
  assert.equal(await read('b.txt'), 'kept\n');
  assert.equal(c.files[0]!.formatter, 'tidy');
  assert.equal(c.files[0]!.sha256, sha256('kept\n'));
});

test('in_place mode formats a staged copy outside the tree, never the live file, and removes it', async () => {
  await ok(mcp, 'file_patch', await patch('doc.md', '# Title\n', '# Title   \n\n\n\nbody\n'));
  assert.equal(await read('doc.md'), '# Title\n\nbody\n');
  const staged = (await fsp.readFile(log, 'utf8')).trim().split('\n');
  assert.equal(staged.length, 1);
  assert.notEqual(staged[0], path.join(sb.root, 'doc.md'));
  assert.ok(staged[0]!.startsWith(os.tmpdir()), staged[0]);
  assert.equal(path.basename(staged[0]!), 'doc.md', 'the staged copy keeps the name (formatters choose by extension)');
  assert.equal(existsSync(staged[0]!), false, 'the staged copy is removed');
});

test('a failing formatter is format_failed with its stderr; nothing of the batch is written', async () => {
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_patch', {
    files: { ...(await patch('a.txt', 'ONE\n', 'one\n')).files, ...(await patch('bad/x.txt', 'x\n', 'xx\n')).files },
  });
  assert.equal(e.code, 'format_failed');
  assert.equal(e.details?.filePath, 'bad/x.txt');
  assert.equal(e.details?.formatter, 'broken');
  assert.equal(e.details?.exitCode, 2);
  assert.match(String(e.details?.stderr), /syntax error at line 3, column 4/);
  assert.match(e.message, /nothing was written/);
  assert.deepEqual(await snapshotTree(sb.root), snap);
});

test('a missing formatter is a clear error and nothing is downloaded or written', async () => {
  const e = await fails(mcp, 'file_patch', await patch('missing/y.txt', 'y\n', 'yy\n'));
  assert.equal(e.code, 'format_failed');
  assert.equal(e.details?.reason, 'missing');
  assert.match(e.message, /`hashline-no-such-formatter` was not found \(formatters are never downloaded/);
  assert.equal(await read('missing/y.txt'), 'y\n');
});

test('a file no formatter matches is written as patched; formatting is off unless enabled', async () => {
  const d = await ok<{ files: Result[] }>(mcp, 'file_patch', await patch('plain.log', 'stay', 'still'));
  assert.equal(d.files[0]!.formatter, undefined);
  assert.equal(await read('plain.log'), 'still   \n');
  const s2 = await makeSandbox({ 'a.txt': 'x  \n', 'hashline.toml': `[[format.formatters]]\nglobs = ["*.txt"]\ncommand = [${node}, ${fixture('tidy-stdout.mjs')}]\nmode = "stdout"\n` });
  const m2 = await connectMcp(['--root', s2.root]);
  try {
    await ok(m2, 'file_patch', { files: { 'a.txt': { patchStrategy: 'aider_block', expectedSha256: sha256('x  \n'), aiderBlocks: [{ search: 'x', replace: 'y' }] } } });
    assert.equal(await fsp.readFile(path.join(s2.root, 'a.txt'), 'utf8'), 'y  \n');
  } finally {
    await m2.close();
    await s2.cleanup();
  }
});

test('file_write formats by the same rule: a new nested file lands formatted, a failing formatter writes nothing (no parents left)', async () => {
  const w = await ok<{ files: Array<{ filePath: string; sha256: string; size: number; formatter?: string }> }>(mcp, 'file_write', {
    files: { 'src/deep/new.txt': { content: 'const x = 1;   \n\n\n\n' }, 'docs/deep/note.md': { content: '# Note   \n\n\n\nbody' }, 'raw.log': { content: 'as is   \n' } },
  });
  assert.equal(await read('src/deep/new.txt'), 'const x = 1;\n');
  assert.equal(await read('docs/deep/note.md'), '# Note\n\nbody\n');
  assert.equal(await read('raw.log'), 'as is   \n', 'no formatter matches: written as given');
  assert.deepEqual(w.files.map((f) => f.formatter), ['tidy', 'tidy-in-place', undefined]);
  assert.equal(w.files[0]!.sha256, sha256('const x = 1;\n'), 'the result describes the bytes written');
  assert.equal(w.files[0]!.size, Buffer.byteLength('const x = 1;\n'));
  const staged = (await fsp.readFile(log, 'utf8')).trim().split('\n');
  assert.ok(!staged.some((s) => s.startsWith(sb.root)), 'in_place mode staged a copy outside the tree');
  const snap = await snapshotTree(sb.root);
  const e = await fails(mcp, 'file_write', { files: { 'fresh/one.txt': { content: 'a\n' }, 'bad/deeper/two.txt': { content: 'b\n' } } });
  assert.equal(e.code, 'format_failed');
  assert.equal(e.details?.filePath, 'bad/deeper/two.txt');
  assert.deepEqual(await snapshotTree(sb.root), snap, 'nothing written, no parent created');
});
