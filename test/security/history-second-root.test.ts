// Attack: an MCP client offers a second root that holds hashline's state directory (roots [project,
// a folder holding $XDG_STATE_HOME/hashline]), at start or through roots/list_changed, then lists,
// hashes, reads, searches and deletes another project's history.
// The state directory is sealed in every root, whichever one holds it, at start and on each change.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectWithRoots, eventually, type RootsSession } from '../helpers/mcp-roots.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const OTHER = 'history-0123456789abcdef.sqlite';
const SECRET = 'OTHER PROJECT HISTORY: password=hunter2\n';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A sandbox whose `outside/` holds the state directory ($XDG_STATE_HOME/hashline) with another project's store. */
async function setup(): Promise<{ sb: Sandbox; state: string; env: Record<string, string> }> {
  const sb = await makeSandbox({ 'a.txt': 'project\n' });
  const state = path.join(sb.outside, 'state', 'hashline');
  mkdirSync(state, { recursive: true });
  writeFileSync(path.join(state, OTHER), SECRET);
  // HOME elsewhere: item 13 refuses a home root; this attack needs none
  return { sb, state, env: { XDG_STATE_HOME: path.join(sb.outside, 'state'), HOME: path.join(sb.base, 'home') } };
}

async function attack(s: RootsSession, state: string, outside: string): Promise<void> {
  const store = path.join(state, OTHER);
  const listed = await s.text('fs_list', { path: path.join(outside, 'state') });
  assert.doesNotMatch(listed.text, /hashline\/|history-/, 'the state directory is not listed');
  const inside = await s.text('fs_list', { path: state });
  assert.doesNotMatch(inside.text, /history-0123/);
  assert.match(inside.text, /state directory/);
  const hashed = await s.text('file_hash', { filePaths: [store] });
  assert.doesNotMatch(hashed.text, new RegExp(sha(SECRET)));
  assert.match(hashed.text, /state directory/);
  const read = await s.text('fs_read', { targets: [{ path: store }] });
  assert.doesNotMatch(read.text, /hunter2/);
  assert.match(read.text, /state directory/);
  const fr = await s.text('file_read', { files: [{ filePath: store }] });
  assert.doesNotMatch(fr.text, /hunter2/);
  const found = await s.text('fs_search', { path: outside, pattern: 'hunter2' });
  assert.doesNotMatch(found.text, /history-0123|hunter2/);
  const del = await s.text('file_delete', { files: { [store]: { expectedSha256: sha(SECRET) } } });
  assert.equal(del.error, true);
  const put = await s.text('file_write', { files: { [path.join(state, 'planted.sqlite')]: { content: 'x' } } });
  assert.equal(put.error, true);
  const moved = await s.text('file_rename', { files: { [store]: { to: path.join(outside, 'stolen.sqlite'), expectedSha256: sha(SECRET) } } });
  assert.equal(moved.error, true);
  // nothing changed in the state directory, and the project's own history lives there as before
  assert.equal(readFileSync(store, 'utf8'), SECRET);
  assert.ok(!readdirSync(state).includes('planted.sqlite'));
}

test('roots [project, folder holding the state directory] at start: the history stays out of reach', async () => {
  const { sb, state, env } = await setup();
  const s = await connectWithRoots({ cwd: sb.root, roots: [sb.root, sb.outside], env });
  try {
    // the project's own history is made there (a write records a version)
    const w = await s.text('file_write', { files: { 'b.txt': { content: 'new\n' } } });
    assert.equal(w.error, false, w.text);
    // the rest of the second root is served
    assert.match((await s.text('fs_read', { targets: [{ path: path.join(sb.outside, 'secret.txt') }] })).text, /TOP SECRET/);
    await attack(s, state, sb.outside);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});

test('the same second root added by roots/list_changed: sealed as well', async () => {
  const { sb, state, env } = await setup();
  const s = await connectWithRoots({ cwd: sb.root, roots: [sb.root], env });
  try {
    assert.match((await s.text('fs_read', { targets: [{ path: 'a.txt' }] })).text, /1\| project/);
    await s.setRoots([sb.outside, sb.root]);
    assert.ok(
      await eventually(async () => /TOP SECRET/.test((await s.text('fs_read', { targets: [{ path: path.join(sb.outside, 'secret.txt') }] })).text)),
      'the new root is served',
    );
    await attack(s, state, sb.outside);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});
