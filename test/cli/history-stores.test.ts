// `hashline history --stores | --prune | --forget` as a person runs it: a spawned CLI over a real
// state directory (XDG_STATE_HOME) holding the stores of two projects filled by real tool calls.
// Lists each store with its project; prunes one project's store by age and by size; forgets a
// project (also one whose folder is gone), touching nothing outside the state directory; exit 0/1/2.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { mergeConfig } from '../../src/core/config/config.js';
import { computeTag } from '../../src/core/text/tag.js';
import { historyStoreFor } from '../../src/io/history/history-file.js';
import { runTool } from '../../src/mcp/server.js';
import { createEngine } from '../../src/tools/engine.js';
import { fsEditTool } from '../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { callContext } from '../helpers/engine.js';
import { cliArgs, REPO } from '../helpers/mcp-client.js';
import { makeSandbox, snapshotTree, type Sandbox } from '../helpers/tmp-tree.js';

let a: Sandbox;
let b: Sandbox;
let state: string;

/** Reads x.txt and edits it once in `root`, through the tools, into the store under `state`. */
async function fill(root: string, text: string): Promise<void> {
  const engine = await createEngine(mergeConfig({ root, allow: [], block: [], readAllow: [], readBlock: [] }), { stateDir: state });
  const c = { ...callContext(), client: { id: 'stores-test' } };
  await runTool(engine, fsReadTool, { targets: [{ path: 'x.txt' }] }, c);
  await runTool(engine, fsEditTool, { targets: [{ path: 'x.txt', file_hash: computeTag(text), ops: 'insert tail:\n+more' }] }, c);
  await engine.history.close();
}

before(async () => {
  state = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-state-')));
  a = await makeSandbox({ 'x.txt': 'alpha\n', 'y.txt': 'why\n' });
  b = await makeSandbox({ 'x.txt': 'beta\n' });
  // project a's first entries are 40 days old (the time each entry records is Date.now() when recorded)
  const realNow = Date.now;
  Date.now = () => realNow() - 40 * 86_400_000;
  try {
    await fill(a.root, 'alpha\n');
  } finally {
    Date.now = realNow;
  }
  await fill(b.root, 'beta\n');
});
after(async () => {
  await a.cleanup();
  await b.cleanup();
  rmSync(state, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs(), 'history', ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, XDG_STATE_HOME: state } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Row { project: string; exists: boolean; file: string; bytes: number; versions: number; newest: string | null }
const rows = () => (JSON.parse(cli('--stores', '--json').out) as { stateDir: string; stores: Row[] }).stores;
const rowOf = (root: string) => rows().find((r) => r.project === root);

test('--stores lists every store with its project, file, size, versions and newest change', () => {
  const r = cli('--stores');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`^2 history stores in ${path.join(state, 'hashline')}\n`));
  for (const root of [a.root, b.root]) {
    const file = path.basename(historyStoreFor(root, state));
    assert.match(r.out, new RegExp(`${root}\n  ${file}  [0-9.]+ [KM]?B  2 versions  newest \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ\n`));
  }
  const row = rowOf(a.root)!;
  assert.equal(row.file, historyStoreFor(a.root, state));
  assert.equal(row.versions, 2);
  assert.equal(row.exists, true);
  assert.ok(row.bytes > 0);
  assert.ok(Date.now() - Date.parse(row.newest!) > 39 * 86_400_000);
  assert.ok(Date.now() - Date.parse(rowOf(b.root)!.newest!) < 600_000);
});

test('usage errors exit 2 and change nothing', () => {
  for (const args of [['--prune'], ['--prune', '--older-than', '3x'], ['--prune', '--max-bytes', 'lots'], ['--older-than', '1d'], ['--stores', 'x.txt'], ['--forget', '--stores'], ['--stores', '--limit', '3']]) {
    const r = cli(...args, '--root', a.root);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
  }
  assert.equal(rowOf(a.root)!.versions, 2);
});

test('--prune --older-than removes the root\'s older entries only; --max-bytes the oldest until the content fits', async () => {
  await fill(a.root, 'alpha\nmore\n');
  const before = rowOf(a.root)!.versions;
  const r = cli('--prune', '--older-than', '30d', '--root', a.root);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`^${a.root}: removed 2 entries \\(`));
  assert.equal(rowOf(a.root)!.versions, before - 2);
  assert.equal(rowOf(b.root)!.versions, 2);
  const sized = JSON.parse(cli('--prune', '--max-bytes', '1', '--root', b.root, '--json').out) as { pruned: Array<{ project: string; removed: number }> };
  assert.deepEqual(sized.pruned.map((p) => [p.project, p.removed > 0]), [[b.root, true]]);
  assert.ok(rowOf(b.root)!.versions < 2);
  // with --stores: every store, each by its project
  const all = cli('--prune', '--stores', '--older-than', '30d');
  assert.equal(all.code, 0, all.err);
  assert.deepEqual(all.out.trim().split('\n').map((l) => l.split(': ')[0]).sort(), [a.root, b.root].sort());
  assert.match(all.out, /removed 0 entries/);
});

test('--forget says what it removes, removes only that store, and refuses when there is none', async () => {
  const project = await snapshotTree(a.root);
  const r = cli('--forget', '--root', a.root);
  assert.equal(r.code, 0, r.err);
  const store = historyStoreFor(a.root, state);
  assert.match(r.out, new RegExp(`^forgetting ${a.root}: \\d+ versions?, [0-9.]+ [KM]?B\nremoved ${store}\n`));
  assert.equal(existsSync(store), false);
  assert.deepEqual(await snapshotTree(a.root), project);
  assert.ok(existsSync(historyStoreFor(b.root, state)));
  const again = cli('--forget', a.root);
  assert.equal(again.code, 1);
  assert.match(again.err, /^hashline: \[not_found\] no history store for /);
});

test('--forget PROJECT works for a project whose folder is gone', () => {
  rmSync(b.root, { recursive: true, force: true });
  assert.match(cli('--stores').out, /\(project folder gone\)/);
  const r = cli('--forget', b.root);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(readdirSync(path.join(state, 'hashline')).filter((n) => n.endsWith('.sqlite')), []);
  assert.match(cli('--stores').out, /^0 history stores in /);
});
