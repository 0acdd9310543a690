// Every tool in every reply shape (success, a file's own error, refusal, preview, each read mode of
// file_read and fs_read) through `callTool` of both official client lines, SDK 1.x (Ajv draft-07)
// and 2.x (Ajv 2020-12), each over its own spawned stdio server: each client's own validator checks
// every structured reply (helpers/sdk-clients.ts also checks refusals and the arguments sent).

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sha256 } from '../helpers/boundary.js';
import { CLIENT_LINES, connectLine, type LineSession, type Reply } from '../helpers/sdk-clients.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const APP = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport class Box {\n  size = 1;\n  grow(): void {\n    this.size += 1;\n  }\n}\n';
const FILES: Record<string, string> = {
  'a.txt': 'alpha\nbeta\ngamma\n',
  'src/app.ts': APP,
  'src/use.ts': "import { add } from './app.js';\nexport const three = add(1, 2);\n",
  'conf.json': '{ "name": "demo", "deps": { "zod": "4" } }\n',
  'conf.toml': '[server]\nport = 8080\nhost = "localhost"\n',
  'conf.yaml': 'server:\n  port: 8080\nlist:\n  - one\n  - two\n',
  'patch.ts': 'export const answer = 41;\nexport function twice(x: number) {\n  return x * 2;\n}\n',
  'mv.txt': 'move me\n',
  'rm.txt': 'delete me\n',
  'mode.sh': 'echo hi\n',
  'edit.txt': 'one\ntwo\nthree\n',
};

type Shape = 'success' | 'file-error' | 'refusal' | 'preview';

/** What a reply is, read from its structured content (both families). */
function shapeOf(r: Reply): Shape {
  if (r.isError === true) return 'refusal';
  const sc = r.structuredContent as Record<string, unknown>;
  if (sc.ok === true) {
    const data = sc.data as { files?: Array<Record<string, unknown>>; preview?: boolean } & Record<string, unknown>;
    const entries: Array<Record<string, unknown>> = Array.isArray(data.files) ? data.files : Object.values(data.files ?? {});
    if (entries.some((f) => f.error !== undefined)) return 'file-error';
    if (entries.some((f) => f.preview === true || f.previewReceipt !== undefined)) return 'preview';
    return 'success';
  }
  const results = (sc.results as Array<Record<string, unknown>> | undefined) ?? [];
  const warned = results.some((x) => x.error !== undefined || (typeof x.warnings === 'string' && x.warnings !== '') || (Array.isArray(x.warnings) && x.warnings.length > 0));
  return warned || sc.error !== undefined ? 'file-error' : 'success';
}

interface Case {
  tool: string;
  shape: Shape;
  /** What the case covers, for the failure message. */
  what: string;
  args: Record<string, unknown> | (() => Record<string, unknown>);
  /** Arguments meant to be refused by the input schema. */
  badInput?: boolean;
  after?: (r: Reply) => void;
}

/** The calls, in order (later ones use what earlier ones did); every tool has a success and a refusal. */
function cases(remember: Map<string, string>): Case[] {
  const tagOf = (r: Reply): void => {
    for (const x of ((r.structuredContent as { results?: Array<{ path: string; file_hash: string }> }).results ?? [])) remember.set(x.path, x.file_hash);
  };
  const hash = (file: string): string => sha256(remember.get(`content:${file}`) ?? FILES[file]!);
  const read = (files: unknown[]) => ({ files });
  return [
    { tool: 'file_hash', shape: 'success', what: 'hashes', args: { filePaths: ['a.txt', 'src/app.ts'] } },
    { tool: 'file_hash', shape: 'file-error', what: 'a missing file', args: { filePaths: ['a.txt', 'missing.txt'] } },
    { tool: 'file_hash', shape: 'refusal', what: 'no paths', args: { filePaths: [] }, badInput: true },
    { tool: 'file_capabilities', shape: 'success', what: 'code and documents', args: { filePaths: ['src/app.ts', 'conf.json', 'conf.toml', 'a.txt'] } },
    { tool: 'file_capabilities', shape: 'file-error', what: 'a path outside', args: { filePaths: ['src/app.ts', '../outside/secret.txt'] } },
    { tool: 'file_capabilities', shape: 'refusal', what: 'an unknown key', args: { filePaths: ['a.txt'], extra: 1 }, badInput: true },
    { tool: 'file_read', shape: 'success', what: 'text window by lines', args: read([{ filePath: 'a.txt', lines: [0, 2] }]) },
    { tool: 'file_read', shape: 'success', what: 'text window by range', args: read([{ filePath: 'a.txt', range: { start: 1, end: 3 } }]) },
    { tool: 'file_read', shape: 'success', what: 'text mode, default window', args: read([{ filePath: 'src/app.ts', mode: 'text' }]) },
    { tool: 'file_read', shape: 'success', what: 'text cut by maxBytes', args: read([{ filePath: 'a.txt', maxBytes: 3 }]) },
    { tool: 'file_read', shape: 'success', what: 'auto: the source map', args: read([{ filePath: 'src/app.ts' }]) },
    { tool: 'file_read', shape: 'success', what: 'ast: symbols', args: read([{ filePath: 'src/app.ts', mode: 'ast', symbols: ['add', 'grow', 'absent'] }]) },
    { tool: 'file_read', shape: 'success', what: 'selectors: JSON, TOML, YAML', args: read([{ filePath: 'conf.json', selectors: ['/deps/zod', '/nope'] }, { filePath: 'conf.toml', selectors: ['/server/port'] }, { filePath: 'conf.yaml', selectors: ['/list/1'] }]) },
    { tool: 'file_read', shape: 'file-error', what: 'a missing file beside a read', args: read([{ filePath: 'a.txt' }, { filePath: 'missing.txt' }]) },
    { tool: 'file_read', shape: 'file-error', what: 'ast on plain text', args: read([{ filePath: 'a.txt', mode: 'ast' }]) },
    { tool: 'file_read', shape: 'refusal', what: 'no files', args: read([]), badInput: true },
    { tool: 'file_write', shape: 'success', what: 'a new nested file and an overwrite', args: () => ({ files: { 'notes/new/n.txt': { content: 'new\n' }, 'a.txt': { content: 'ALPHA\n', expectedSha256: hash('a.txt') } } }), after: () => remember.set('content:a.txt', 'ALPHA\n') },
    { tool: 'file_write', shape: 'refusal', what: 'a stale hash', args: { files: { 'a.txt': { content: 'x\n', expectedSha256: '0'.repeat(64) } } } },
    { tool: 'file_patch', shape: 'preview', what: 'an aider block, previewed', args: () => ({ files: { 'patch.ts': { patchStrategy: 'aider_block', expectedSha256: hash('patch.ts'), preview: true, aiderBlocks: [{ search: 'export const answer = 41;\n', replace: 'export const answer = 42;\n' }] } } }), after: (r) => {
      const data = (r.structuredContent as { data: { files: Record<string, { previewReceipt?: string }> | Array<{ previewReceipt?: string }> } }).data;
      const entry = Array.isArray(data.files) ? data.files[0] : Object.values(data.files)[0];
      remember.set('receipt', entry!.previewReceipt!);
    } },
    { tool: 'file_patch', shape: 'success', what: 'the receipt committed', args: () => ({ files: { 'patch.ts': { previewReceipt: remember.get('receipt') } } }), after: () => remember.set('content:patch.ts', FILES['patch.ts']!.replace('41', '42')) },
    { tool: 'file_patch', shape: 'success', what: 'an ast rule', args: () => ({ files: { 'patch.ts': { patchStrategy: 'ast', expectedSha256: hash('patch.ts'), astRules: [{ pattern: 'x * 2', fix: 'x + x' }] } } }) },
    { tool: 'file_patch', shape: 'refusal', what: 'a search that stands nowhere', args: () => ({ files: { 'src/app.ts': { patchStrategy: 'aider_block', expectedSha256: hash('src/app.ts'), aiderBlocks: [{ search: 'no such line at all\n', replace: 'x\n' }] } } }) },
    { tool: 'file_rename', shape: 'success', what: 'a rename', args: { files: { 'mv.txt': { destination: 'moved/mv.txt', expectedSha256: sha256(FILES['mv.txt']!) } } } },
    { tool: 'file_rename', shape: 'refusal', what: 'onto an existing file', args: { files: { 'edit.txt': { destination: 'src/app.ts' } } } },
    { tool: 'file_chattr', shape: 'success', what: 'a chmod', args: { files: { 'mode.sh': { chattr: { chmod: 0o755 }, expectedSha256: sha256(FILES['mode.sh']!) } } } },
    { tool: 'file_chattr', shape: 'refusal', what: 'a stale hash', args: { files: { 'mode.sh': { chattr: { chmod: 0o644 }, expectedSha256: 'f'.repeat(64) } } } },
    { tool: 'file_delete', shape: 'success', what: 'a delete', args: { files: { 'rm.txt': { expectedSha256: sha256(FILES['rm.txt']!) } } } },
    { tool: 'file_delete', shape: 'refusal', what: 'a missing file', args: { files: { 'rm.txt': {} } } },
    { tool: 'fs_read', shape: 'success', what: 'a whole file', args: { targets: [{ path: 'edit.txt' }] }, after: tagOf },
    { tool: 'fs_read', shape: 'success', what: 'line ranges', args: { targets: [{ path: 'src/app.ts', line_range: '1-2,5-6' }] } },
    { tool: 'fs_read', shape: 'success', what: 'the block on a line', args: { targets: [{ path: 'src/app.ts', line: 5 }] } },
    { tool: 'fs_read', shape: 'success', what: 'a symbol, in a file and in a folder', args: { targets: [{ path: 'src/app.ts', symbol: 'add', full: true }, { path: 'src', symbol: 'grow' }] } },
    { tool: 'fs_read', shape: 'refusal', what: 'a directory without a symbol (nothing read: an error)', args: { targets: [{ path: 'src' }] } },
    { tool: 'fs_read', shape: 'refusal', what: 'a missing file (nothing read: an error)', args: { targets: [{ path: 'missing.txt' }] } },
    { tool: 'fs_read', shape: 'file-error', what: 'a missing file beside a read', args: { targets: [{ path: 'a.txt' }, { path: 'missing.txt' }] } },
    { tool: 'fs_read', shape: 'refusal', what: 'no targets', args: { targets: [] }, badInput: true },
    { tool: 'fs_write', shape: 'success', what: 'a new file', args: { targets: [{ path: 'w.txt', text: 'written\n' }] }, after: tagOf },
    { tool: 'fs_write', shape: 'file-error', what: 'one file refused beside one written', args: { targets: [{ path: 'w2.txt', text: 'ok\n' }, { path: '../outside/x.txt', text: 'no\n' }] } },
    { tool: 'fs_write', shape: 'refusal', what: 'every file refused', args: { targets: [{ path: '../outside/x.txt', text: 'no\n' }, { path: 'w.txt', text: 'x\n', file_hash: '0000' }] } },
    { tool: 'fs_write', shape: 'refusal', what: 'no targets', args: { targets: [] }, badInput: true },
    { tool: 'fs_edit', shape: 'success', what: 'an edit with its diff', args: () => ({ targets: [{ path: 'edit.txt', file_hash: remember.get('edit.txt'), ops: 'replace 2:\n+TWO' }] }), after: tagOf },
    { tool: 'fs_edit', shape: 'success', what: 'a compact reply', args: () => ({ reply: 'compact', targets: [{ path: 'edit.txt', file_hash: remember.get('edit.txt'), ops: 'insert tail:\n+four' }] }), after: tagOf },
    { tool: 'fs_edit', shape: 'refusal', what: 'an unknown tag', args: { targets: [{ path: 'edit.txt', file_hash: 'ZZZZ', ops: 'delete 1' }] } },
    { tool: 'fs_ast_edit', shape: 'success', what: 'a rewrite', args: { ops: [{ pat: 'a + b', out: 'b + a' }], paths: ['src/app.ts'] } },
    { tool: 'fs_ast_edit', shape: 'file-error', what: 'no match', args: { ops: [{ pat: 'nothing.here($A)', out: 'x' }], paths: ['src/app.ts'] } },
    { tool: 'fs_ast_edit', shape: 'refusal', what: 'a path outside', args: { ops: [{ pat: 'a', out: 'b' }], paths: ['../outside'] } },
    { tool: 'fs_rollback', shape: 'success', what: 'the version before', args: { path: 'edit.txt' } },
    { tool: 'fs_rollback', shape: 'refusal', what: 'an unknown version', args: { path: 'edit.txt', hash: '0000' } },
    { tool: 'fs_list', shape: 'success', what: 'a tree', args: {} },
    { tool: 'fs_list', shape: 'success', what: 'a glob', args: { path: 'src', glob: '*.ts' } },
    { tool: 'fs_list', shape: 'refusal', what: 'outside the root', args: { path: '../outside' } },
    { tool: 'fs_search', shape: 'success', what: 'text hits', args: { pattern: 'add' } },
    { tool: 'fs_search', shape: 'success', what: 'a regex without hits', args: { pattern: '^nothing$', regex: true } },
    { tool: 'fs_search', shape: 'refusal', what: 'a bad regex', args: { pattern: '(', regex: true } },
    { tool: 'fs_outline', shape: 'success', what: 'a file and a folder', args: { targets: [{ path: 'src/app.ts' }, { path: 'src' }] } },
    { tool: 'fs_outline', shape: 'refusal', what: 'outside the root (nothing outlined: an error)', args: { targets: [{ path: '../outside' }] } },
    { tool: 'fs_outline', shape: 'file-error', what: 'outside the root beside a file', args: { targets: [{ path: '../outside' }, { path: 'src/app.ts' }] } },
    { tool: 'fs_outline', shape: 'refusal', what: 'no targets', args: { targets: [] }, badInput: true },
    { tool: 'fs_references', shape: 'success', what: 'a name', args: { name: 'add' } },
    { tool: 'fs_references', shape: 'refusal', what: 'outside the root', args: { name: 'add', path: '../outside' } },
  ];
}

for (const line of CLIENT_LINES) {
  test(`${line}: callTool of every tool in every reply shape validates`, async () => {
    const sb = await makeSandbox(FILES);
    let s: LineSession | undefined;
    try {
      s = await connectLine(line, ['--root', sb.root, '--history', 'memory']);
      const remember = new Map<string, string>();
      const all = cases(remember);
      const wrong: string[] = [];
      for (const c of all) {
        const args = typeof c.args === 'function' ? c.args() : c.args;
        const r = await s.call(c.tool, args, { checkInput: c.badInput !== true });
        assert.ok(r.structuredContent, `${c.tool} (${c.what}) has structured content`);
        const sc = r.structuredContent as { data?: { files?: unknown } };
        const shape = shapeOf(r);
        if (shape !== c.shape) wrong.push(`${c.tool} (${c.what}): ${shape}, not ${c.shape}: ${JSON.stringify(sc.data?.files ?? sc).slice(0, 400)}`);
        // a boundary error about a file names it (details.filePath), at the top or in a file's entry
        if (c.tool.startsWith('file_') && c.badInput !== true) {
          const env = sc as { error?: { details?: { filePath?: unknown } }; data?: { files?: unknown } };
          const entries = Array.isArray(env.data?.files) ? (env.data.files as Array<{ error?: { details?: { filePath?: unknown } } }>) : [];
          for (const e of [env.error, ...entries.map((f) => f.error)]) {
            if (e !== undefined && typeof e.details?.filePath !== 'string') wrong.push(`${c.tool} (${c.what}): an error without details.filePath: ${JSON.stringify(e)}`);
          }
        }
        c.after?.(r);
      }
      assert.deepEqual(wrong, []);
      // every listed tool was called, with a success and a refusal at least
      for (const t of s.tools) {
        const shapes = new Set(all.filter((c) => c.tool === t.name).map((c) => c.shape));
        assert.ok(shapes.has('success') && shapes.has('refusal'), `${t.name}: ${[...shapes].join(', ')}`);
      }
      assert.equal(await fsp.readFile(path.join(sb.outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
    } finally {
      await s?.close();
      await sb.cleanup();
    }
  });
}
