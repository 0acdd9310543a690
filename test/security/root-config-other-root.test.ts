// Attack: the client lists a root that has its own hashline.toml (read blocks) after another root,
// roots [B, A], at start or through roots/list_changed, and reads what A's file blocks. Each root's
// configuration file governs its own paths, whichever place the root has in the list; it is
// protected from writes and followed while the server runs.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectWithRoots, eventually, type RootsSession } from '../helpers/mcp-roots.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

const A_TOML = 'read_block = ["secrets"]\nblock = ["frozen"]\n';

/** Root A (its hashline.toml read-blocks `secrets/`, blocks `frozen/`) and root B (its own file blocks `b-private/`). */
async function setup(): Promise<{ sb: Sandbox; a: string; b: string }> {
  const sb = await makeSandbox({});
  const a = path.join(sb.base, 'A');
  const b = path.join(sb.base, 'B');
  for (const d of [path.join(a, 'secrets'), path.join(a, 'frozen'), path.join(b, 'b-private')]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(a, 'hashline.toml'), A_TOML);
  writeFileSync(path.join(a, 'secrets', 'key.txt'), 'A_SECRET_KEY\n');
  writeFileSync(path.join(a, 'frozen', 'f.txt'), 'frozen\n');
  writeFileSync(path.join(a, 'open.txt'), 'A open\n');
  writeFileSync(path.join(b, 'hashline.toml'), 'block = ["b-private"]\n');
  writeFileSync(path.join(b, 'b-private', 'p.txt'), 'B_PRIVATE\n');
  writeFileSync(path.join(b, 'b.txt'), 'B open\n');
  return { sb, a, b };
}

/** A's and B's files keep their own rules, read by absolute path. */
async function assertEachRootGoverns(s: RootsSession, a: string, b: string): Promise<void> {
  const key = path.join(a, 'secrets', 'key.txt');
  assert.match((await s.text('fs_read', { targets: [{ path: path.join(a, 'open.txt') }] })).text, /A open/);
  for (const [tool, args] of [
    ['fs_read', { targets: [{ path: key }] }],
    ['file_read', { files: [{ filePath: key }] }],
    ['fs_search', { path: a, pattern: 'A_SECRET' }],
    ['fs_read', { targets: [{ path: path.join(b, 'b-private', 'p.txt') }] }],
  ] as const) {
    const r = await s.text(tool, args);
    assert.doesNotMatch(r.text, /A_SECRET_KEY|B_PRIVATE/, `${tool} ${JSON.stringify(args)}`);
  }
  assert.match((await s.text('fs_read', { targets: [{ path: key }] })).text, /blocklist/);
  const w = await s.text('file_write', { files: { [path.join(a, 'frozen', 'f.txt')]: { content: 'thawed\n' } } });
  assert.equal(w.error, true, w.text);
  const t = await s.text('file_write', { files: { [path.join(a, 'hashline.toml')]: { content: '# nothing blocked\n' } } });
  assert.equal(t.error, true, t.text);
  assert.equal(readFileSync(path.join(a, 'frozen', 'f.txt'), 'utf8'), 'frozen\n');
  assert.equal(readFileSync(path.join(a, 'hashline.toml'), 'utf8'), A_TOML);
}

test('roots [B, A] at start: A’s hashline.toml governs A’s paths, B’s governs B’s', async () => {
  const { sb, a, b } = await setup();
  const s = await connectWithRoots({ cwd: sb.outside, roots: [b, a] });
  try {
    assert.match((await s.text('fs_read', { targets: [{ path: 'b.txt' }] })).text, /B open/);
    await assertEachRootGoverns(s, a, b);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});

test('roots/list_changed from [A] to [B, A]: A’s file still governs A; a later edit of it is followed', async () => {
  const { sb, a, b } = await setup();
  const s = await connectWithRoots({ cwd: sb.outside, roots: [a] });
  try {
    assert.match((await s.text('fs_read', { targets: [{ path: 'open.txt' }] })).text, /A open/);
    await s.setRoots([b, a]);
    assert.ok(await eventually(async () => /B open/.test((await s.text('fs_read', { targets: [{ path: 'b.txt' }] })).text)));
    await assertEachRootGoverns(s, a, b);
    // the operator blocks more in A's file: it applies from a later call
    writeFileSync(path.join(a, 'hashline.toml'), `${A_TOML}read_block = ["secrets", "open.txt"]\n`.replace('read_block = ["secrets"]\n', ''));
    assert.ok(
      await eventually(async () => /blocklist/.test((await s.text('fs_read', { targets: [{ path: path.join(a, 'open.txt') }] })).text)),
      'an edit of a further root’s file is followed',
    );
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});

test('a further root whose hashline.toml does not parse: nothing is served, the error names the file', async () => {
  const { sb, a, b } = await setup();
  writeFileSync(path.join(a, 'hashline.toml'), 'read_block = [unterminated\n');
  const s = await connectWithRoots({ cwd: sb.outside, roots: [b, a] });
  try {
    const r = await s.text('fs_read', { targets: [{ path: path.join(a, 'secrets', 'key.txt') }] });
    assert.equal(r.error, true);
    assert.match(r.text, /config_invalid/);
    assert.ok(r.text.includes(path.join(a, 'hashline.toml')), r.text);
    assert.doesNotMatch(r.text, /A_SECRET_KEY/);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});
