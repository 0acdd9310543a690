// Attack: an MCP client announces `/`, the home directory or a folder holding it as its root (or
// a link to one of them), at start or through roots/list_changed, and reads /etc/passwd or the
// user's files. Such roots are refused as the fallback rule refuses such a working directory:
// only --root may name them.

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectWithRoots, eventually } from '../helpers/mcp-roots.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const PASSWD = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;

test('a client whose only root is `/` or a link to it: nothing is served, every call names --root', async () => {
  const sb = await makeSandbox({ 'a.txt': 'project\n' });
  symlinkSync('/', path.join(sb.outside, 'slash'));
  for (const root of ['/', path.join(sb.outside, 'slash')]) {
    const s = await connectWithRoots({ cwd: sb.root, roots: [root], env: { HOME: sb.outside } });
    try {
      for (const [tool, args] of [
        ['fs_read', { targets: [{ path: '/etc/passwd' }] }],
        ['file_read', { files: [{ filePath: '/etc/passwd' }] }],
        ['fs_list', { path: '/' }],
      ] as const) {
        const r = await s.text(tool, args);
        assert.equal(r.error, true, `${root} ${tool}`);
        assert.match(r.text, /--root/, `${root} ${tool}`);
        assert.ok(!r.text.includes(PASSWD), `${root} ${tool} leaked /etc/passwd`);
      }
      assert.match(s.stderr(), /the client's MCP root is `\/`, the whole file system, refused/);
    } finally {
      await s.client.close();
    }
  }
  await sb.cleanup();
});

test('the home directory or a folder holding it, beside a project root: the project is served, home is not', async () => {
  const sb = await makeSandbox({ 'a.txt': 'project\n' });
  const home = path.join(sb.outside, 'home');
  mkdirSync(home);
  writeFileSync(path.join(home, '.netrc'), 'machine x password HOME_SECRET\n');
  for (const extra of [home, sb.outside]) {
    const s = await connectWithRoots({ cwd: sb.outside, roots: [sb.root, extra], env: { HOME: home } });
    try {
      const a = await s.text('fs_read', { targets: [{ path: 'a.txt' }] });
      assert.match(a.text, /1\| project/);
      for (const [tool, args] of [
        ['fs_read', { targets: [{ path: path.join(home, '.netrc') }] }],
        ['file_read', { files: [{ filePath: path.join(home, '.netrc') }] }],
        ['fs_search', { path: home, pattern: 'HOME_SECRET' }],
        ['fs_read', { targets: [{ path: path.join(sb.outside, 'secret.txt') }] }],
      ] as const) {
        const r = await s.text(tool, args);
        // fs_read answers a refused target as a warning in its reply; the others as an error
        assert.match(r.text, /outside project root/, `${extra} ${tool}`);
        assert.doesNotMatch(r.text, /HOME_SECRET|TOP SECRET/);
      }
      const w = await s.text('file_write', { files: { [path.join(home, 'planted.txt')]: { content: 'x' } } });
      assert.equal(w.error, true);
      assert.match(s.stderr(), /the client's MCP root (is|holds) the home directory/);
    } finally {
      await s.client.close();
    }
  }
  assert.equal(readFileSync(path.join(home, '.netrc'), 'utf8'), 'machine x password HOME_SECRET\n');
  assert.throws(() => readFileSync(path.join(home, 'planted.txt')));
  await sb.cleanup();
});

test('roots/list_changed to `/` or the home directory does not open them', async () => {
  const sb = await makeSandbox({ 'a.txt': 'project\n' });
  const s = await connectWithRoots({ cwd: sb.root, roots: [sb.root], env: { HOME: sb.outside } });
  try {
    assert.match((await s.text('fs_read', { targets: [{ path: 'a.txt' }] })).text, /1\| project/);
    await s.setRoots(['/', sb.outside]);
    // the server looked at the new list (and refused both)
    assert.ok(await eventually(async () => /roots\/list_changed/.test(s.stderr()) || s.listed() >= 2));
    assert.ok(await eventually(async () => (s.stderr().match(/refused \(only --root may name it\)/g) ?? []).length >= 2));
    const p = await s.text('file_read', { files: [{ filePath: '/etc/passwd' }] });
    assert.match(p.text, /outside project root/, p.text);
    assert.ok(!p.text.includes(PASSWD));
    const q = await s.text('fs_read', { targets: [{ path: '/etc/passwd' }] });
    assert.match(q.text, /outside project root/);
    assert.ok(!q.text.includes(PASSWD));
    const o = await s.text('fs_read', { targets: [{ path: path.join(sb.outside, 'secret.txt') }] });
    assert.doesNotMatch(o.text, /TOP SECRET/);
    // the roots in force stay: the project is still served
    assert.match((await s.text('fs_read', { targets: [{ path: 'a.txt' }] })).text, /1\| project/);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});
