// The package as users get it: `npm pack`, installed into an empty folder, then `npx hashline mcp
// --root DIR` driven by the MCP SDK client (tools/list, one call of each family), `npx hashline
// serve` driven by fetch, a grammar added with `npx hashline lang add`, the library imported by name,
// every subpath of `exports` imported by its public name (`hashline/ai` with its peer `ai`), and
// `hashline/ai` with `ai` 7 under generateText and a mock model. Also the size of the default install
// and the time of the first npx. Slow (an npm install): `npm run test:pack`, run by CI.
// It packs the current build: `npm run build` first when the sources changed (npm install does).

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from '../test/helpers/mcp-client.js';

/** The default install's node_modules on disk, as `du -sh` shows it to a user. */
const MAX_INSTALL_BYTES = 90 * 1024 * 1024;
/** The first `npx` of the tarball, with an empty npm cache: download, install and `--help`. */
const MAX_FIRST_NPX_MS = 30_000;

let work: string;
let app: string;
let project: string;
let grammars: string;
let tarballPath: string;

/** Bytes on disk (blocks in use, as `du -sh` counts them); `apparent`: the files' sizes. */
function duBytes(dir: string, apparent = false): number {
  return apparent ? Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]) : 1024 * Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

before(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'hashline-pack-'));
  app = path.join(work, 'app');
  project = path.join(work, 'project');
  grammars = path.join(work, 'grammars');
  mkdirSync(app);
  mkdirSync(project);
  writeFileSync(path.join(project, 'a.py'), 'def alpha():\n    return 1\n');
  writeFileSync(path.join(project, 'b.lua'), 'local function beta()\n  return 2\nend\n');
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  tarballPath = path.join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  writeFileSync(path.join(app, 'package.json'), '{"name": "app", "private": true}\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarballPath], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
});

after(() => rmSync(work, { recursive: true, force: true }));

const env = () => ({ ...(process.env as Record<string, string>), HASHLINE_GRAMMAR_DIR: grammars, HASHLINE_TOKEN: '' });

async function mcp(): Promise<{ client: Client; text: (name: string, args: Record<string, unknown>) => Promise<string> }> {
  const client = new Client({ name: 'pack-test', version: '0' });
  await client.connect(new StdioClientTransport({ command: 'npx', args: ['--no-install', 'hashline', 'mcp', '--root', project], cwd: app, env: env(), stderr: 'ignore' }));
  return {
    client,
    text: async (name, args) => {
      const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const b = r.content[0];
      return b && b.type === 'text' ? b.text : '';
    },
  };
}

test('the default install stays small and ships what it needs', () => {
  const bytes = duBytes(path.join(app, 'node_modules'));
  const apparent = duBytes(path.join(app, 'node_modules'), true);
  process.stdout.write(`# default install: node_modules ${(bytes / 1024 / 1024).toFixed(1)} MiB on disk (files: ${(apparent / 1024 / 1024).toFixed(1)} MiB)\n`);
  assert.ok(bytes <= MAX_INSTALL_BYTES, `${(bytes / 1024 / 1024).toFixed(1)} MiB on disk, above ${MAX_INSTALL_BYTES / 1024 / 1024} MiB`);
  // nothing is compiled at install: no addon built in place, no native build tree
  assert.equal(execFileSync('find', [path.join(app, 'node_modules'), '-path', '*/build/*', '-name', '*.node'], { encoding: 'utf8' }), '');
  const pkg = path.join(app, 'node_modules/hashline');
  const shipped = readdirSync(pkg).sort();
  for (const f of ['LICENSE', 'README.md', 'bin', 'dist', 'package.json']) assert.ok(shipped.includes(f), f);
  // no source maps pointing at sources that are not shipped
  assert.equal(execFileSync('find', [pkg, '-name', '*.map'], { encoding: 'utf8' }), '');
  const langs = readdirSync(path.join(app, 'node_modules/@ast-grep')).filter((d) => d.startsWith('lang-')).sort();
  assert.deepEqual(langs, ['lang-go', 'lang-json', 'lang-markdown', 'lang-python', 'lang-toml', 'lang-yaml']);
});

test('the first npx of the tarball (an empty npm cache): installed and `hashline --help` printed within 30 s', () => {
  const cache = path.join(work, 'npx-cache');
  const cwd = path.join(work, 'npx-cwd');
  mkdirSync(cwd);
  const started = performance.now();
  const out = execFileSync('npx', ['-y', '--package', tarballPath, 'hashline', '--help'], {
    cwd,
    env: { ...env(), npm_config_cache: cache, npm_config_update_notifier: 'false' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ms = performance.now() - started;
  process.stdout.write(`# first npx --help: ${(ms / 1000).toFixed(1)} s\n`);
  assert.match(out, /Runs on Node\.js 22 or later/);
  assert.match(out, /History: SQLite available/);
  assert.ok(ms < MAX_FIRST_NPX_MS, `${(ms / 1000).toFixed(1)} s`);
});

test('npx hashline mcp: tools/list, a hashline read with a grammar, a boundary hash; a missing grammar names its install command', async () => {
  const s = await mcp();
  try {
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    for (const n of ['fs_read', 'fs_edit', 'file_hash', 'file_read']) assert.ok(names.includes(n), n);
    assert.match(await s.text('fs_read', { targets: [{ path: 'a.py', symbol: 'alpha' }] }), /¶a\.py#[0-9A-F]{4}\n1\| def alpha\(\):/);
    const hash = JSON.parse(await s.text('file_hash', { filePaths: ['a.py'] })) as { ok: boolean; data: { files: Array<{ sha256: string }> } };
    assert.equal(hash.ok, true);
    assert.match(hash.data.files[0]!.sha256, /^[0-9a-f]{64}$/);
    assert.match(await s.text('fs_read', { targets: [{ path: 'b.lua', symbol: 'beta' }] }), /hashline lang add lua/);
  } finally {
    await s.client.close();
  }
});

test('npx hashline lang add lua: installed into the grammar folder, used by the next server', async () => {
  const out = execFileSync('npx', ['--no-install', 'hashline', 'lang', 'add', 'lua'], { cwd: app, env: env(), encoding: 'utf8' });
  assert.match(out, /lua: installed/);
  const list = execFileSync('npx', ['--no-install', 'hashline', 'lang', 'list'], { cwd: app, env: env(), encoding: 'utf8' });
  assert.match(list, /^lua +user /m);
  const s = await mcp();
  try {
    assert.match(await s.text('fs_read', { targets: [{ path: 'b.lua', symbol: 'beta' }] }), /1\| local function beta\(\)\n2\|   return 2\n3\| end/);
  } finally {
    await s.client.close();
  }
});

test('npx hashline serve: GET and PUT /v1/fs/file over fetch, the web console shipped with it, then SIGTERM', async () => {
  // its own process group: npx runs the server as a child, and SIGTERM must reach the server
  const child = spawn('npx', ['--no-install', 'hashline', 'serve', '--root', project, '--port', '0', '--no-token'], { cwd: app, env: env(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /serving on (http:\/\/[^\s]+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const put = await fetch(`${url}/v1/fs/file?path=new.txt`, { method: 'PUT', body: 'one\ntwo\nthree\n' });
    assert.ok(put.ok, String(put.status));
    const get = await fetch(`${url}/v1/fs/file?path=new.txt&start_line=2&end_line=3`);
    assert.equal(await get.text(), 'two\nthree\n');
    const outside = await fetch(`${url}/v1/fs/file?path=${encodeURIComponent('../app/package.json')}`);
    assert.equal(outside.status, 403);
    // the console's static files come with the package (found from the bundled bin), and the PUT is in its feed
    assert.match(await (await fetch(`${url}/`)).text(), /<script type="module" src="\/console\/assets\/console.js">/);
    for (const asset of ['console.js', 'console.css', 'icon.svg']) assert.equal((await fetch(`${url}/console/assets/${asset}`)).status, 200, asset);
    const session = await fetch(`${url}/console/api/session`);
    const cookie = session.headers.getSetCookie()[0]!.split(';', 1)[0]!;
    const feed = (await (await fetch(`${url}/console/api/feed`, { headers: { cookie } })).json()) as { entries: Array<{ path: string; tool: string }> };
    assert.ok(feed.entries.some((e) => e.path === 'new.txt' && e.tool === 'http_put_file'), JSON.stringify(feed));
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
});

test('the library by name: createEngine({ root }) and callTool from the installed package', () => {
  const script = `
    const h = await import('hashline');
    const engine = await h.createEngine({ root: ${JSON.stringify(project)} });
    const r = await h.callTool(engine, h.fsReadTool, { targets: [{ path: 'a.py' }] });
    console.log(r.ok, r.text.split('\\n')[1], typeof h.HashlineClient, typeof h.parseEditOps);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
  assert.equal(out.trim(), 'true 1| def alpha(): function undefined');
});

test('without the optional `pg`, a PostgreSQL history falls back to memory and says how to add it', () => {
  const script = `
    const h = await import('hashline');
    const engine = await h.createEngine({ root: ${JSON.stringify(project)}, history: 'postgres://hashline@127.0.0.1:9/none' });
    const r = await h.callTool(engine, h.fsReadTool, { targets: [{ path: 'a.py' }] });
    console.log(JSON.stringify({ ok: r.ok, status: engine.history.status() }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const { ok, status } = JSON.parse(out) as { ok: boolean; status: { backend: string; warning?: string } };
  assert.equal(ok, true);
  assert.equal(status.backend, 'memory');
  assert.match(status.warning!, /the `pg` package is not installed: add it beside hashline \(`npm install pg`/);
});

test('every subpath of exports imports by its public name from the installed package', () => {
  // hashline/ai needs its optional peer `ai`, as a user installs it (after the size check above)
  const aiRange = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.ai!;
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `ai@${aiRange}`], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
  const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/hashline/package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>> };
  const subpaths = Object.keys(installed.exports);
  assert.ok(subpaths.includes('./ai'), subpaths.join(', '));
  for (const sub of subpaths) {
    const name = sub === '.' ? 'hashline' : `hashline/${sub.slice(2)}`;
    const target = installed.exports[sub]!;
    // the declarations a TypeScript user gets come with the package too
    if (typeof target !== 'string' && target.types) assert.ok(existsSync(path.join(app, 'node_modules/hashline', target.types)), `${name}: ${target.types}`);
    const load = name.endsWith('.json') ? `await import(${JSON.stringify(name)}, { with: { type: 'json' } })` : `await import(${JSON.stringify(name)})`;
    const script = `const m = ${load}; console.log(Object.keys(m).filter((k) => k !== 'default' || Object.keys(m).length === 1).sort().join(','));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' }).trim();
    assert.notEqual(out, '', `${name} exports something`);
    if (name === 'hashline') assert.match(out, /(^|,)createEngine(,|$)/);
    if (name === 'hashline/ai') assert.match(out, /(^|,)aiSdkTools(,|$)/);
  }
});

test('hashline/ai with ai 7: generateText runs the tools through a mock model from ai/test, all from the installed packages', () => {
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'ai@7'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
  const script = `
    import { generateText, stepCountIs } from 'ai';
    import { MockLanguageModelV4 } from 'ai/test';
    import { createEngine } from 'hashline';
    import { aiSdkTools } from 'hashline/ai';
    const calls = [
      { toolName: 'fs_read', input: { targets: [{ path: 'a.py', symbol: 'alpha' }] } },
      { toolName: 'file_hash', input: { filePaths: ['a.py'] } },
    ];
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const prompts = [];
    const model = new MockLanguageModelV4({
      doGenerate: async ({ prompt }) => {
        const call = calls[prompts.length];
        prompts.push(prompt);
        if (!call) return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
        const content = [{ type: 'tool-call', toolCallId: 'c' + prompts.length, toolName: call.toolName, input: JSON.stringify(call.input) }];
        return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      },
    });
    const engine = await createEngine({ root: ${JSON.stringify(project)}, history: 'memory' });
    const r = await generateText({ model, tools: aiSdkTools(engine, { tools: ['fs_read', 'file_hash'] }), stopWhen: stepCountIs(5), prompt: 'read a.py' });
    const results = r.steps.flatMap((s) => s.toolResults.map((t) => t.toolName));
    console.log(JSON.stringify({ text: r.text, results, last: JSON.stringify(prompts.at(-1)) }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' })) as { text: string; results: string[]; last: string };
  assert.equal(out.text, 'done');
  assert.deepEqual(out.results, ['fs_read', 'file_hash']);
  // what the model read back: the hashline family's text block and the boundary family's envelope
  assert.match(out.last, /¶a\.py#[0-9A-F]{4}\\n1\| def alpha\(\):/);
  assert.match(out.last, /\\"ok\\":true,\\"data\\":\{\\"files\\":\[\{\\"filePath\\":\\"a\.py\\"/);
});
