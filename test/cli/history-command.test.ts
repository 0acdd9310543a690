// `hashline history` as a person runs it (a spawned CLI over the durable store that a server filled):
// the versions of a file newest first, --json, --show ID, the root's recent changes, exit codes
// 0/1/2, and the read policy: a read-blocked file is listed without content and --show refuses it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { mergeConfig } from '../../src/core/config/config.js';
import { computeTag } from '../../src/core/text/tag.js';
import { runTool } from '../../src/mcp/server.js';
import { createEngine } from '../../src/tools/engine.js';
import { fsEditTool } from '../../src/tools/hashline/fs-edit.js';
import { fsReadTool } from '../../src/tools/hashline/fs-read.js';
import { callContext } from '../helpers/engine.js';
import { cliArgs, REPO } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
const SECRET = 'password = hunter2\n';

before(async () => {
  sb = await makeSandbox({ 'a.txt': 'one\ntwo\n', 'secret.txt': SECRET });
  const engine = await createEngine(mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }));
  const c = { ...callContext(), client: { id: 'cli-test' } };
  await runTool(engine, fsReadTool, { targets: [{ path: 'a.txt' }] }, c);
  await runTool(engine, fsEditTool, { targets: [{ path: 'a.txt', file_hash: computeTag('one\ntwo\n'), ops: 'replace 2:\n+TWO' }] }, c);
  // stored for rollback even though the read policy below refuses it
  engine.history.record(path.join(engine.guard.realRoot, 'secret.txt'), SECRET, { kind: 'made' });
  await engine.history.close();
});
after(() => sb.cleanup());

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs(), 'history', '--root', sb.root, ...args], { cwd: REPO, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('lists the versions of a file, newest first, and prints one with --show', () => {
  const r = cli('a.txt');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.match(lines[0]!, /^a\.txt: 2 entries, newest first/);
  assert.match(lines[1]!, new RegExp(`made\\s+${computeTag('one\nTWO\n')}\\s+8\\s+fs_edit cli-test`));
  assert.match(lines[2]!, new RegExp(`seen\\s+${computeTag('one\ntwo\n')}\\s+8\\s+fs_read cli-test`));
  const json = JSON.parse(cli('a.txt', '--json').out) as { path: string; contentShown: boolean; versions: Array<{ id: number; op: string }> };
  assert.equal(json.path, 'a.txt');
  assert.equal(json.contentShown, true);
  assert.deepEqual(json.versions.map((v) => v.op), ['made', 'seen']);
  const shown = cli('a.txt', '--show', String(json.versions[1]!.id));
  assert.equal(shown.code, 0, shown.err);
  assert.equal(shown.out, 'one\ntwo\n');
  // the id alone names its version (the usage line shows PATH as optional)
  const byId = cli('--show', String(json.versions[1]!.id));
  assert.equal(byId.code, 0, byId.err);
  assert.equal(byId.out, 'one\ntwo\n');
  assert.equal(cli('--show', '999999').code, 1);
  // an id of another file is not a version of this one
  const other = JSON.parse(cli('secret.txt', '--json').out) as { versions: Array<{ id: number }> };
  const foreign = cli('a.txt', '--show', String(other.versions[0]!.id));
  assert.equal(foreign.code, 1);
  assert.match(foreign.err, /^hashline: \[version_not_found\] /);
});

test('without PATH: the root\'s recent changes', () => {
  const r = cli('--limit', '2');
  assert.equal(r.code, 0, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, /secret\.txt$/);
  assert.match(lines[1]!, /fs_edit cli-test\s+a\.txt$/);
});

test('a read-blocked file is listed without content, and --show refuses it', () => {
  const listed = cli('secret.txt', '--read-block', 'secret.txt');
  assert.equal(listed.code, 0, listed.err);
  assert.match(listed.out, /content refused by the read policy/);
  const json = JSON.parse(cli('secret.txt', '--read-block', 'secret.txt', '--json').out) as { contentShown: boolean; versions: Array<{ id: number }> };
  assert.equal(json.contentShown, false);
  const shown = cli('secret.txt', '--read-block', 'secret.txt', '--show', String(json.versions[0]!.id));
  assert.equal(shown.code, 1);
  assert.equal(shown.out, '');
  assert.ok(!shown.err.includes('hunter2'));
  assert.match(shown.err, /\[path_blocked\] .*refused by the read policy/);
  // the id alone is held to the read policy of the path it names
  const byId = cli('--read-block', 'secret.txt', '--show', String(json.versions[0]!.id));
  assert.equal(byId.code, 1);
  assert.ok(!byId.out.includes('hunter2') && !byId.err.includes('hunter2'));
});

test('exit codes: 1 for a refused path or a history that is not durable, 2 for bad usage', () => {
  assert.equal(cli('../outside/secret.txt').code, 1);
  const memory = cli('a.txt', '--history', 'memory');
  assert.equal(memory.code, 1);
  assert.match(memory.err, /^hashline: \[history_unavailable\] no durable history/);
  const memoryJson = cli('a.txt', '--history', 'memory', '--json');
  assert.equal(memoryJson.code, 1);
  assert.equal((JSON.parse(memoryJson.out) as { error: { code: string } }).error.code, 'history_unavailable');
  assert.match(cli('../outside/secret.txt').err, /^hashline: \[path_outside_root\] /);
  assert.equal(cli('a.txt', '--limit', 'x').code, 2);
  assert.equal(cli('a.txt', '--bogus').code, 2);
  assert.equal(cli('a.txt', 'b.txt').code, 2);
});
