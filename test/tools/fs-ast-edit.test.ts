// fs_ast_edit through its tool entry: candidates (files, directories, globs, cap, links, ignores),
// per-file warnings, coded errors, and what is written (BOM, endings, mode, history).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { computeTag, formatHeader } from '../../src/core/tag.js';
import type { Engine } from '../../src/tools/engine.js';
import { rewriteWorkers, stopRewritePool } from '../../src/lang/rewrite-pool.js';
import { fsAstEditTool } from '../../src/tools/fs-ast-edit.js';
import type { CallContext } from '../../src/tools/tool.js';
import { engineFor } from '../helpers/engine.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

const LOG = { pat: 'console.log($A)', out: 'logger.debug($A)' };
const call = (): CallContext => ({ signal: new AbortController().signal, progress: () => undefined });

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

async function setup(files: Record<string, string | Uint8Array>): Promise<{ sb: Sandbox; engine: Engine }> {
  sb = await makeSandbox(files);
  return { sb, engine: await engineFor(sb.root) };
}

function run(engine: Engine, args: Record<string, unknown>) {
  const parsed = fsAstEditTool.input.parse(args);
  return fsAstEditTool.run(engine, parsed, call());
}

async function rejects(p: Promise<unknown>, code: string) {
  await assert.rejects(p, (e: { code?: string }) => {
    assert.equal(e.code, code);
    return true;
  });
}

const read = (s: Sandbox, rel: string) => fsp.readFile(path.join(s.root, rel), 'utf8');

test('a file: rewritten, with header, first changed line, diff, and a history entry', async () => {
  const { sb, engine } = await setup({ 'src/a.ts': 'const x = 1;\nconsole.log(x);\n' });
  const out = await run(engine, { ops: [LOG], paths: ['src/a.ts'] });
  const after = 'const x = 1;\nlogger.debug(x);\n';
  assert.equal(await read(sb, 'src/a.ts'), after);
  assert.equal(out.structured.results.length, 1);
  const r = out.structured.results[0]!;
  assert.equal(r.path, 'src/a.ts');
  assert.equal(r.file_hash, computeTag(after));
  assert.equal(r.header, formatHeader('src/a.ts', computeTag(after)));
  assert.equal(r.first_changed_line, 2);
  assert.deepEqual(r.warnings, []);
  assert.match(r.diff!, /^-console\.log\(x\);$/m);
  assert.match(r.diff!, /^\+logger\.debug\(x\);$/m);
  assert.match(out.text, /¶src\/a\.ts#/);
  const real = path.join(sb.root, 'src/a.ts');
  const versions = engine.history.versions(real).map((v) => v.text);
  assert.deepEqual(versions, ['const x = 1;\nconsole.log(x);\n', after]);
});

test('a directory: recursive, sorted, .gitignore honoured, node_modules and .git skipped', async () => {
  const { sb, engine } = await setup({
    '.gitignore': 'ignored/\n',
    'src/b.ts': 'console.log(2);\n',
    'src/a.js': 'console.log(1);\n',
    'src/deep/c.tsx': 'console.log(3);\n',
    'src/none.ts': 'let nothing = 0;\n',
    'src/notes.txt': 'console.log(1)\n',
    'ignored/d.ts': 'console.log(4);\n',
    'node_modules/m/e.ts': 'console.log(5);\n',
    '.git/f.ts': 'console.log(6);\n',
  });
  const before = await snapshotTree(sb.root);
  const out = await run(engine, { ops: [LOG], paths: ['.'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['src/a.js', 'src/b.ts', 'src/deep/c.tsx']);
  assert.equal(await read(sb, 'src/deep/c.tsx'), 'logger.debug(3);\n');
  const after = await snapshotTree(sb.root);
  for (const k of ['ignored/d.ts', 'node_modules/m/e.ts', '.git/f.ts', 'src/notes.txt', 'src/none.ts']) assert.equal(after.get(k), before.get(k), k);
});

test('a glob: matched under its base, gitignore-aware, `!` excludes', async () => {
  const { sb, engine } = await setup({
    '.gitignore': 'gen.ts\n',
    'src/a.ts': 'console.log(1);\n',
    'src/sub/b.ts': 'console.log(2);\n',
    'src/sub/skip.ts': 'console.log(3);\n',
    'src/c.js': 'console.log(4);\n',
    'src/gen.ts': 'console.log(5);\n',
    'other/d.ts': 'console.log(6);\n',
  });
  const out = await run(engine, { ops: [LOG], paths: ['src/**/*.ts', '!src/sub/skip.ts'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['src/a.ts', 'src/sub/b.ts']);
  assert.equal(await read(sb, 'src/c.js'), 'console.log(4);\n');
  assert.equal(await read(sb, 'src/gen.ts'), 'console.log(5);\n');
  assert.equal(await read(sb, 'other/d.ts'), 'console.log(6);\n');
});

test('max_files caps the sorted candidates and says so', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 5; i++) files[`f${i}.ts`] = `console.log(${i});\n`;
  const { sb, engine } = await setup(files);
  const out = await run(engine, { ops: [LOG], paths: ['.'], max_files: 3 });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['f0.ts', 'f1.ts', 'f2.ts']);
  assert.equal(out.structured.notes?.length, 1);
  assert.match(out.structured.notes![0]!, /5 candidate files; only the first 3/);
  assert.match(out.text, /note: 5 candidate files/);
  assert.equal(await read(sb, 'f4.ts'), 'console.log(4);\n');
});

test('a generated file is not rewritten and gets a warning', async () => {
  const gen = '// Code generated by protoc. DO NOT EDIT.\nconsole.log(1);\n';
  const { sb, engine } = await setup({ 'gen.ts': gen, 'ok.ts': 'console.log(2);\n' });
  const out = await run(engine, { ops: [LOG], paths: ['.'] });
  assert.equal(await read(sb, 'gen.ts'), gen);
  const r = out.structured.results.find((x) => x.path === 'gen.ts')!;
  assert.match(r.warnings[0]!, /auto-generated/);
  assert.equal(r.diff, undefined);
  assert.equal(r.file_hash, computeTag(gen));
  assert.equal(await read(sb, 'ok.ts'), 'logger.debug(2);\n');
});

test('a link to outside inside the tree is not followed; nothing outside changes', async () => {
  const { sb, engine } = await setup({ 'in.ts': 'console.log(1);\n' });
  await fsp.writeFile(path.join(sb.outside, 'x.ts'), 'console.log(666);\n');
  await fsp.symlink(sb.outside, path.join(sb.root, 'out-dir'));
  await fsp.symlink(path.join(sb.outside, 'x.ts'), path.join(sb.root, 'out-file.ts'));
  const outside = await snapshotTree(sb.outside);
  const out = await run(engine, { ops: [LOG], paths: ['.', '**/*.ts'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['in.ts']);
  assert.deepEqual(await snapshotTree(sb.outside), outside);
  // named explicitly, a link out is a guard denial: a hard error
  await rejects(run(engine, { ops: [LOG], paths: ['out-file.ts'] }), 'symlink_escape');
  await rejects(run(engine, { ops: [LOG], paths: ['out-dir/x.ts'] }), 'symlink_escape');
  await rejects(run(engine, { ops: [LOG], paths: ['../outside/x.ts'] }), 'path_outside_root');
  assert.deepEqual(await snapshotTree(sb.outside), outside);
});

test('CRLF endings, a BOM and the mode are kept', async () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('// é\r\nif (a) {\r\n  console.log(1);\r\n}\r\n')]);
  const { sb, engine } = await setup({ 'w.ts': bytes, 'run.js': '#!/usr/bin/env node\nconsole.log(1);\n' });
  await fsp.chmod(path.join(sb.root, 'run.js'), 0o755);
  await fsp.chmod(path.join(sb.root, 'w.ts'), 0o640);
  await run(engine, { ops: [{ pat: 'console.log($A);', out: 'logger.debug($A);\nlogger.flush();' }], paths: ['w.ts', 'run.js'] });
  const got = await fsp.readFile(path.join(sb.root, 'w.ts'));
  const want = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('// é\r\nif (a) {\r\n  logger.debug(1);\r\n  logger.flush();\r\n}\r\n')]);
  assert.deepEqual(got, want);
  assert.equal((await fsp.stat(path.join(sb.root, 'w.ts'))).mode & 0o777, 0o640);
  assert.equal((await fsp.stat(path.join(sb.root, 'run.js'))).mode & 0o777, 0o755);
  assert.equal(await read(sb, 'run.js'), '#!/usr/bin/env node\nlogger.debug(1);\nlogger.flush();\n');
});

test('as root, each rewritten file keeps its own owner and group', { skip: process.getuid?.() !== 0 ? 'needs root' : false }, async () => {
  const { sb, engine } = await setup({ 'a.ts': 'console.log(1);\n', 'b.ts': 'console.log(2);\n', 'c.ts': 'console.log(3);\n' });
  await fsp.chown(path.join(sb.root, 'a.ts'), 1234, 2345);
  await fsp.chown(path.join(sb.root, 'b.ts'), 4321, 5432);
  await run(engine, { ops: [LOG], paths: ['.'] });
  const owner = async (rel: string) => {
    const st = await fsp.stat(path.join(sb.root, rel));
    return [st.uid, st.gid];
  };
  assert.deepEqual(await owner('a.ts'), [1234, 2345]);
  assert.deepEqual(await owner('b.ts'), [4321, 5432]);
  assert.deepEqual(await owner('c.ts'), [0, 0]);
  assert.equal(await read(sb, 'a.ts'), 'logger.debug(1);\n');
});

test('a few files are parsed in place; many files on worker threads, each rewritten as alone', async () => {
  stopRewritePool();
  const few = await setup({ 'a.ts': 'console.log(1);\n', 'b.ts': 'console.log(2);\n' });
  await run(few.engine, { ops: [LOG], paths: ['.'] });
  assert.equal(await read(few.sb, 'b.ts'), 'logger.debug(2);\n');
  assert.equal(rewriteWorkers(), 0);
  await few.sb.cleanup();
  const files: Record<string, string> = {};
  for (let i = 0; i < 80; i++) files[`m${i}.ts`] = i % 2 ? `const v${i} = ${i};\r\nconsole.log(v${i} + "é");\r\n` : `console.log({\n  k: ${i},\n});\n`;
  const many = await setup(files);
  const out = await run(many.engine, { ops: [LOG], paths: ['.'] });
  assert.ok(rewriteWorkers() >= 1);
  assert.equal(out.structured.results.length, 80);
  for (let i = 0; i < 80; i++) {
    const want = i % 2 ? `const v${i} = ${i};\r\nlogger.debug(v${i} + "é");\r\n` : `logger.debug({\n  k: ${i},\n});\n`;
    assert.equal(await read(many.sb, `m${i}.ts`), want);
  }
  stopRewritePool();
});

test('non-ASCII text before the match is rewritten at the right place', async () => {
  const { sb, engine } = await setup({ 'Ω.ts': 'const s = "日本語 🎉 ü"; console.log(s); // ñ\n' });
  await run(engine, { ops: [LOG], paths: ['Ω.ts'] });
  assert.equal(await read(sb, 'Ω.ts'), 'const s = "日本語 🎉 ü"; logger.debug(s); // ñ\n');
});

test('nested matches: the outer one is rewritten and the skipped one reported', async () => {
  const { sb, engine } = await setup({ 'n.ts': 'f(f(1));\n' });
  const out = await run(engine, { ops: [{ pat: 'f($A)', out: 'g($A)' }], paths: ['n.ts'] });
  assert.equal(await read(sb, 'n.ts'), 'g(f(1));\n');
  assert.match(out.structured.results[0]!.warnings.join('\n'), /1 match\(es\) nested in a rewritten match were left unchanged \(line 1\)/);
});

test('per-file warnings: no matches in a named file, an unparsable pattern, no grammar', async () => {
  const { sb, engine } = await setup({ 'a.ts': 'let a = 1;\n', 'b.ts': 'f(1);\n', 'c.txt': 'console.log(1)\n', 'd.ts': 'let d = 1;\n' });
  const none = await run(engine, { ops: [LOG], paths: ['a.ts'] });
  assert.deepEqual(none.structured.results[0]!.warnings, ['no matches found for `console.log($A)`']);
  assert.equal(none.structured.results[0]!.first_changed_line, undefined);
  const bad = await run(engine, { ops: [{ pat: 'f($A', out: 'g($A)' }], paths: ['b.ts'] });
  assert.match(bad.structured.results[0]!.warnings[0]!, /pattern `f\(\$A` does not parse as typescript/i);
  assert.equal(await read(sb, 'b.ts'), 'f(1);\n');
  const txt = await run(engine, { ops: [LOG], paths: ['c.txt'] });
  assert.match(txt.structured.results[0]!.warnings[0]!, /no grammar/);
  // files found by a walk that do not match are not reported
  const swept = await run(engine, { ops: [LOG], paths: ['.'] });
  assert.deepEqual(swept.structured.results, []);
  assert.match(swept.text, /no matches found in 3 file\(s\)/);
});

test('a nonexistent explicit path is skipped silently', async () => {
  const { sb, engine } = await setup({ 'a.ts': 'console.log(1);\n' });
  const out = await run(engine, { ops: [LOG], paths: ['missing.ts', 'missing-dir/', 'a.ts'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['a.ts']);
  assert.equal(await read(sb, 'a.ts'), 'logger.debug(1);\n');
});

test('coded errors: empty ops or paths, empty or duplicate pat', async () => {
  const { engine } = await setup({ 'a.ts': 'console.log(1);\n' });
  await rejects(run(engine, { ops: [], paths: ['a.ts'] }), 'invalid_arguments');
  await rejects(run(engine, { ops: [LOG], paths: [] }), 'invalid_arguments');
  await rejects(run(engine, { ops: [{ pat: '  ', out: 'x' }], paths: ['a.ts'] }), 'invalid_arguments');
  await rejects(run(engine, { ops: [LOG, { pat: LOG.pat, out: 'other($A)' }], paths: ['a.ts'] }), 'invalid_arguments');
  assert.equal(fsAstEditTool.input.safeParse({ ops: [LOG], paths: ['a.ts'], extra: 1 }).success, false);
});

test('ops apply in order in every file, across languages', async () => {
  const { sb, engine } = await setup({
    'a.py': 'print(1)\n',
    'b.go': 'package main\n\nfunc main() {\n\tprint(1)\n}\n',
    'c.rs': 'fn main() {\n    print(1);\n}\n',
    'D.java': 'class D {\n  void f() {\n    print(1);\n  }\n}\n',
  });
  await run(engine, { ops: [{ pat: 'print($A)', out: 'emit($A)' }, { pat: 'emit($A)', out: 'emit($A, $A)' }], paths: ['.'] });
  assert.equal(await read(sb, 'a.py'), 'emit(1, 1)\n');
  assert.equal(await read(sb, 'b.go'), 'package main\n\nfunc main() {\n\temit(1, 1)\n}\n');
  assert.equal(await read(sb, 'c.rs'), 'fn main() {\n    emit(1, 1);\n}\n');
  assert.equal(await read(sb, 'D.java'), 'class D {\n  void f() {\n    emit(1, 1);\n  }\n}\n');
});

test('a blocked path named explicitly is a hard error; under a walk it is left alone', async () => {
  sb = await makeSandbox({ 'secret/a.ts': 'console.log(1);\n', 'b.ts': 'console.log(2);\n' });
  const engine = await engineFor(sb.root, { block: ['secret'] });
  await rejects(run(engine, { ops: [LOG], paths: ['secret/a.ts'] }), 'path_blocked');
  const out = await run(engine, { ops: [LOG], paths: ['.'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['b.ts']);
  assert.equal(await read(sb, 'secret/a.ts'), 'console.log(1);\n');
});

test('fs_rollback undoes a rewrite; the lines shown in the diff are marked seen', async () => {
  const { fsRollbackTool } = await import('../../src/tools/fs-rollback.js');
  const before = 'const a = 1;\r\nconsole.log(a);\r\n';
  const { sb, engine } = await setup({ 'r.ts': before });
  await run(engine, { ops: [LOG], paths: ['r.ts'] });
  assert.equal(await read(sb, 'r.ts'), 'const a = 1;\r\nlogger.debug(a);\r\n');
  const head = engine.history.head(path.join(sb.root, 'r.ts'))!;
  assert.deepEqual([...head.seen].sort(), [1, 2]);
  await fsRollbackTool.run(engine, fsRollbackTool.input.parse({ path: 'r.ts', hash: '' }), call());
  assert.equal(await read(sb, 'r.ts'), before);
});

test('in a sweep, an unparsable pattern is reported only for files holding its words', async () => {
  const { engine } = await setup({ 'a.ts': 'let a = 1;\n', 'b.ts': 'print(1);\n' });
  const out = await run(engine, { ops: [{ pat: 'print($A', out: 'log($A)' }], paths: ['.'] });
  assert.deepEqual(out.structured.results.map((r) => r.path), ['b.ts']);
  assert.match(out.structured.results[0]!.warnings[0]!, /does not parse/);
});

test('a file changed between planning and writing is rewritten from its new content, with a warning', async () => {
  const { Committer, plan } = await import('../../src/tools/ast-edit-batch.js');
  const { languageForPath } = await import('../../src/lang/registry.js');
  const { sb, engine } = await setup({ 'c.ts': 'console.log(1);\n' });
  const rp = await engine.guard.resolve('c.ts', 'write');
  const ops = [LOG];
  const planned = await plan(engine, { rp, explicit: true }, ops, languageForPath('c.ts'));
  assert.ok(planned?.next);
  await fsp.writeFile(path.join(sb.root, 'c.ts'), '// edited meanwhile\nconsole.log(2);\n');
  const committer = new Committer(engine, ops, new AbortController().signal);
  await committer.add(planned);
  await committer.finish();
  assert.equal(await read(sb, 'c.ts'), '// edited meanwhile\nlogger.debug(2);\n');
  assert.match(planned.warnings[0]!, /changed on disk while it was being rewritten/);
});

test('a cancelled call stops with the coded error `aborted` and writes nothing', async () => {
  const { sb, engine } = await setup({ 'a.ts': 'console.log(1);\n' });
  const ac = new AbortController();
  ac.abort();
  await rejects(fsAstEditTool.run(engine, fsAstEditTool.input.parse({ ops: [LOG], paths: ['.'] }), { signal: ac.signal, progress: () => undefined }), 'aborted');
  assert.equal(await read(sb, 'a.ts'), 'console.log(1);\n');
});
