// fs_ast_edit's history over many files, whose versions and seen lines commit in groups
// (io/history/history-batch-sql.ts): every file the reply reports changed is in the store before
// the reply (another engine over the same store rolls each one back with fs_rollback), twice (the
// second time every text is already held, as in a repeated rewrite: rolled back to the tag of the
// text before, since a text already held keeps its place among the versions), with the lines of
// each diff shown marked seen; the chunk's paths are looked up together, not loaded one by one;
// and when one file cannot be replaced, the files the error names as written are recorded and
// rolled back, the others are unchanged with no version made. On SQLite, and on PostgreSQL when it
// is on the machine.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, test } from 'node:test';
import { mergeConfig } from '../../../src/core/config/config.js';
import { computeTag } from '../../../src/core/text/tag.js';
import { runTool } from '../../../src/mcp/server.js';
import { createEngine, type Engine } from '../../../src/tools/engine.js';
import { fsAstEditTool } from '../../../src/tools/hashline/fs-ast-edit.js';
import { fsRollbackTool } from '../../../src/tools/hashline/fs-rollback.js';
import { callContext } from '../../helpers/engine.js';
import { skipOrFail } from '../../helpers/needs.js';
import { skipWithoutPostgres, startPostgres, type Postgres } from '../../helpers/postgres.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const LOG = { pat: 'console.log($A)', out: 'logger.debug($A)' };
/** Fewer files than the history's window holds (50 paths): fs_rollback can reach each of them. */
const FILES = 44;

const sandboxes: Sandbox[] = [];
const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.history.close();
  for (const s of sandboxes.splice(0)) await s.cleanup();
});

async function engineOn(root: string, history?: string): Promise<Engine> {
  const e = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [], ...(history ? { history } : {}) }), {
    report: (m) => assert.fail(`unexpected report: ${m}`),
  });
  engines.push(e);
  return e;
}

function tree(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`${i % 4 === 0 ? 'b' : 'a'}/f${String(i).padStart(2, '0')}.ts`] = `const v = ${i}; // Ω\nconsole.log(v);\nexport { v };\n`;
  return files;
}

const structured = (r: { structuredContent?: unknown }) => r.structuredContent as { results: Array<{ path: string; diff?: string }> };
const errorOf = (r: { structuredContent?: unknown }) => r.structuredContent as { error: { code: string; details: { written: string[]; failed: Array<{ path: string }> } } };

/**
 * Rolls back each of `paths` from a fresh engine over the same store (to the version before, or to
 * the tag of `files`' text with `byTag`) and checks the bytes are `files`' again.
 */
async function rollBackEach(sb: Sandbox, history: string | undefined, paths: readonly string[], files: Record<string, string>, byTag = false): Promise<void> {
  const other = await engineOn(sb.root, history);
  for (const p of paths) {
    const real = path.join(sb.root, p);
    await other.history.load([real]);
    // the lines of the diff shown are marked seen on the version written (lines 1-3: the whole file)
    const disk = await fsp.readFile(real, 'utf8');
    assert.deepEqual([...other.history.versions(real).find((v) => v.text === disk)!.seen].sort(), [1, 2, 3], p);
    const back = await runTool(other, fsRollbackTool, { path: p, hash: byTag ? computeTag(files[p]!) : '' }, callContext());
    assert.equal(back.isError, undefined, JSON.stringify(back.content));
    assert.equal(await fsp.readFile(real, 'utf8'), files[p], p);
  }
}

async function rewriteAndRollBack(history?: string): Promise<void> {
  const files = tree();
  const sb = await makeSandbox(files);
  sandboxes.push(sb);
  const engine = await engineOn(sb.root, history);
  for (const round of [1, 2]) {
    const out = await runTool(engine, fsAstEditTool, { ops: [LOG], paths: ['.'] }, callContext());
    assert.equal(out.isError, undefined, JSON.stringify(out.content));
    const reported = structured(out).results.map((r) => r.path);
    assert.equal(reported.length, FILES, `round ${round}`);
    assert.ok(structured(out).results.every((r) => r.diff !== undefined));
    for (const p of reported) assert.match(await fsp.readFile(path.join(sb.root, p), 'utf8'), /logger\.debug\(v\)/);
    await rollBackEach(sb, history, reported, files, round === 2);
  }
}

test('every file a multi-file rewrite reports is rolled back by another engine, twice (SQLite)', async () => {
  await rewriteAndRollBack();
});

test('a chunk\'s paths are looked up together: no window is loaded per file', async () => {
  const sb = await makeSandbox(tree());
  sandboxes.push(sb);
  const engine = await engineOn(sb.root);
  const h = engine.history;
  const load = h.load.bind(h);
  const groups: number[] = [];
  h.load = (paths) => {
    groups.push(paths.length);
    return load(paths);
  };
  const out = await runTool(engine, fsAstEditTool, { ops: [LOG], paths: ['.'] }, callContext());
  assert.equal(out.isError, undefined, JSON.stringify(out.content));
  assert.equal(groups.reduce((a, b) => a + b, 0), FILES);
  assert.ok(groups.length < FILES / 4, `${groups.length} lookups for ${FILES} files`);
});

test('one file that cannot be replaced: the files written are recorded and rolled back; the others have no version made', async (t) => {
  const files = tree();
  const sb = await makeSandbox(files);
  sandboxes.push(sb);
  const locked = path.join(sb.root, 'b/f20.ts');
  try {
    execFileSync('chattr', ['+i', locked], { stdio: 'pipe' });
  } catch {
    return skipOrFail(t, 'needs chattr +i (root, a file system that has it) to make a file immutable');
  }
  try {
    const engine = await engineOn(sb.root);
    const out = await runTool(engine, fsAstEditTool, { ops: [LOG], paths: ['.'] }, callContext());
    assert.equal(out.isError, true);
    const { code, details } = errorOf(out).error;
    assert.equal(code, 'io_error');
    const written = [...details.written].sort();
    assert.ok(written.length > FILES / 2 && !written.includes('b/f20.ts'), written.join());
    assert.deepEqual(details.failed.map((f) => f.path), ['b/f20.ts']);
    const other = await engineOn(sb.root);
    for (const p of Object.keys(files).filter((f) => !written.includes(f))) {
      assert.equal(await fsp.readFile(path.join(sb.root, p), 'utf8'), files[p], p);
      await other.history.load([path.join(sb.root, p)]);
      assert.ok(!other.history.versions(path.join(sb.root, p)).some((v) => v.text.includes('logger')), p);
    }
    await rollBackEach(sb, undefined, written, files);
  } finally {
    execFileSync('chattr', ['-i', locked]);
  }
});

const skip = skipWithoutPostgres();
let pg: Postgres | undefined;
before(async () => {
  if (!skip) pg = await startPostgres();
});
after(() => pg?.stop());

test('every file a multi-file rewrite reports is rolled back by another engine, twice (PostgreSQL)', { skip }, async () => {
  await rewriteAndRollBack(pg!.createDb('ast_history'));
});
