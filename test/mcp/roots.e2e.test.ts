// MCP roots over a real stdio session: without --root the client's roots decide (several roots,
// relative paths against the first, roots/list_changed followed); a client without roots gets the
// working directory, except the home directory (and /), where every call names --root.

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { connectWithRoots } from '../helpers/mcp-roots.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

const connect = connectWithRoots;

test('the client roots decide: relative paths in the first root, absolute paths in any root, nothing else', async () => {
  const sb = await makeSandbox({ 'a.txt': 'in the first root\n' });
  const second = path.join(sb.base, 'second');
  mkdirSync(second);
  writeFileSync(path.join(second, 'b.txt'), 'in the second root\n');
  const s = await connect({ cwd: sb.outside, roots: [sb.root, second] });
  try {
    const a = await s.text('fs_read', { targets: [{ path: 'a.txt' }] });
    assert.match(a.text, /¶a\.txt#[0-9A-F]{4}\n1\| in the first root/);
    const b = await s.text('fs_read', { targets: [{ path: path.join(second, 'b.txt') }] });
    assert.match(b.text, /1\| in the second root/);
    // the working directory (sb.outside) is not a root
    const out = await s.text('fs_read', { targets: [{ path: path.join(sb.outside, 'secret.txt') }] });
    assert.doesNotMatch(out.text, /TOP SECRET/);
    assert.match(out.text, /outside/);
    const w = await s.text('fs_write', { targets: [{ path: path.join(second, 'new.txt'), text: 'made\n' }] });
    assert.match(w.text, /new\.txt#/);
    assert.ok(s.listed() >= 1);

    // roots/list_changed: the boundary follows
    await s.setRoots([sb.outside]);
    let moved = false;
    for (let i = 0; i < 50 && !moved; i++) {
      const r = await s.text('fs_read', { targets: [{ path: 'secret.txt' }] });
      moved = /TOP SECRET/.test(r.text);
      if (!moved) await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(moved, 'the new root is served after roots/list_changed');
    const old = await s.text('fs_read', { targets: [{ path: path.join(sb.root, 'a.txt') }] });
    assert.doesNotMatch(old.text, /in the first root/);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});

test('no --root, no client roots, started in the home directory: every call names --root and nothing is served', async () => {
  const sb = await makeSandbox({ 'a.txt': 'home file\n' });
  const s = await connect({ cwd: sb.root, env: { HOME: sb.root } });
  try {
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('fs_read'));
    for (const [tool, args] of [
      ['fs_read', { targets: [{ path: 'a.txt' }] }],
      ['file_hash', { filePaths: ['a.txt'] }],
    ] as const) {
      const r = await s.text(tool, args);
      assert.equal(r.error, true, tool);
      assert.match(r.text, /--root/, tool);
      assert.doesNotMatch(r.text, /home file/);
    }
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});

test('no --root, no client roots, an ordinary working directory: it is the root', async () => {
  const sb = await makeSandbox({ 'a.txt': 'project file\n' });
  const s = await connect({ cwd: sb.root, env: { HOME: sb.base } });
  try {
    const r = await s.text('fs_read', { targets: [{ path: 'a.txt' }] });
    assert.match(r.text, /1\| project file/);
  } finally {
    await s.client.close();
    await sb.cleanup();
  }
});
