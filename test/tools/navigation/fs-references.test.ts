// fs_references over the real MCP client: uses of a name in TypeScript, Python, Rust and Go from
// the syntax tree (comments, strings and longer names never count), roles marked, the `kind`
// filter, the cap, and a rename of a function and its callers as one fs_edit batch from the hits.

import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectMcp, textOf, type McpSession } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

interface Ref { line: number; column: number; role: string }
interface RefHit { path: string; file_hash: string; content: string; hit_lines: number[]; references: Ref[] }
interface RefOut { results: RefHit[]; total_references: number; capped: boolean; notes: string[] }

const FILES: Record<string, string> = {
  'ts/app.ts': [
    "import { greet } from './greet';", // 1 import
    '// greet is called below, greet()', // 2 comment
    'const label = "greet the world";', // 3 string
    'export function main(): string {', // 4
    '  const greeter = 1;', // 5 longer name
    '  return greet(label) + obj.greet();', // 6 call, call (member)
    '}', // 7
    'const alias = greet;', // 8 reference
  ].join('\n') + '\n',
  'ts/greet.ts': 'export function greet(s: string): string {\n  return `greet ${s}`;\n}\n',
  'py/mod.py': [
    'from util import greet', // 1 import
    '', // 2
    'def greet(name):', // 3 definition
    '    """greet someone"""', // 4 docstring
    '    return name  # greet', // 5 comment
    '', // 6
    'greet("greet")', // 7 call
    'greeting = greet', // 8 reference
  ].join('\n') + '\n',
  'rs/lib.rs': [
    'use crate::util::greet;', // 1 import
    '// greet', // 2
    'fn greet(s: &str) -> String { format!("greet {}", s) }', // 3 definition
    'fn main() { greet("a"); println!("greet"); let greet_all = 1; }', // 4 call
  ].join('\n') + '\n',
  'go/main.go': [
    'package main', // 1
    '', // 2
    '// greet says hello', // 3
    'func greet(s string) string { return "greet" + s }', // 4 definition
    '', // 5
    'func main() { println(greet("x")); f := greet; _ = f }', // 6 call + reference
  ].join('\n') + '\n',
};

let sb: Sandbox;
let mcp: McpSession;

before(async () => {
  sb = await makeSandbox(FILES);
  mcp = await connectMcp(['--root', sb.root]);
  // with the tools listed, the client checks every result against its tool's output schema
  await mcp.client.listTools();
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

async function refs(args: Record<string, unknown>): Promise<RefOut> {
  const r = await mcp.call('fs_references', args);
  assert.equal(r.isError, undefined, textOf(r));
  return r.structuredContent as unknown as RefOut;
}

const roles = (h: RefHit) => h.references.map((r) => `${r.line}:${r.role}`);

test('TypeScript: imports, calls (plain and member) and references; comments, strings and longer names skipped', async () => {
  const out = await refs({ name: 'greet', path: 'ts' });
  const app = out.results.find((h) => h.path === 'ts/app.ts')!;
  assert.deepEqual(roles(app), ['1:import', '6:call', '6:call', '8:reference']);
  assert.deepEqual(app.hit_lines, [1, 6, 8]);
  assert.match(app.content, /^¶ts\/app\.ts#[0-9A-F]{4}\n1\| import \{ greet \} from '\.\/greet';\n\[…4 lines between ranges elided\]\n6\| {3}return greet/);
  assert.match(app.content, /\n\[import 1; call 6; reference 8\]$/);
  const def = out.results.find((h) => h.path === 'ts/greet.ts')!;
  assert.deepEqual(roles(def), ['1:definition']);
  assert.match(def.content, /\[definition 1\]$/);
});

test('Python, Rust and Go: the same rules', async () => {
  const py = (await refs({ name: 'greet', path: 'py' })).results[0]!;
  assert.deepEqual(roles(py), ['1:import', '3:definition', '7:call', '8:reference']);
  const rs = (await refs({ name: 'greet', path: 'rs/lib.rs' })).results[0]!;
  assert.deepEqual(roles(rs), ['1:import', '3:definition', '4:call']);
  const go = (await refs({ name: 'greet', path: 'go' })).results[0]!;
  assert.deepEqual(roles(go), ['4:definition', '6:call', '6:reference']);
});

test('kind filters calls or imports; the cap says what was left', async () => {
  const calls = await refs({ name: 'greet', kind: 'call' });
  assert.ok(calls.results.every((h) => h.references.every((r) => r.role === 'call')));
  assert.deepEqual(calls.results.map((h) => h.path).sort(), ['go/main.go', 'py/mod.py', 'rs/lib.rs', 'ts/app.ts']);
  const imports = await refs({ name: 'greet', kind: 'import' });
  assert.deepEqual(imports.results.map((h) => h.path).sort(), ['py/mod.py', 'rs/lib.rs', 'ts/app.ts']);
  const capped = await refs({ name: 'greet', max_results: 2 });
  assert.equal(capped.capped, true);
  assert.equal(capped.total_references, 2);
  assert.match(capped.notes.at(-1)!, /^\[Stopped at max_results \(2\) references after 1 file; \d+ more files holding the name not searched/);
});

test('a name that is not one identifier is refused; a file without a grammar is refused', async () => {
  const r = await mcp.call('fs_references', { name: 'a.b' });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /^\[invalid_arguments\] `name` must be one identifier/);
  await fsp.writeFile(path.join(sb.root, 'notes.txt'), 'greet\n');
  const t = await mcp.call('fs_references', { name: 'greet', path: 'notes.txt' });
  assert.match(textOf(t), /^\[unsupported_language\]/);
});

test('rename a function and every caller in one fs_edit batch from the hits', async () => {
  const out = await refs({ name: 'greet', path: 'ts' });
  const targets = out.results.map((h) => {
    const text = FILES[h.path]!.split('\n');
    const ops = [...new Set(h.references.map((r) => r.line))]
      .map((n) => `replace ${n}:\n+${text[n - 1]!.replace(/\bgreet\b(?=[(;]| \})/g, 'welcome')}`)
      .join('\n');
    return { path: h.path, file_hash: h.file_hash, ops };
  });
  const e = await mcp.call('fs_edit', { targets });
  assert.equal(e.isError, undefined, textOf(e));
  for (const r of (e.structuredContent as { results: Array<{ warnings: string[] }> }).results) assert.deepEqual(r.warnings, []);
  const after = await refs({ name: 'welcome', path: 'ts' });
  assert.deepEqual(after.results.flatMap(roles), ['1:import', '6:call', '6:call', '8:reference', '1:definition']);
  assert.equal((await refs({ name: 'greet', path: 'ts', kind: 'call' })).results.length, 0);
});
