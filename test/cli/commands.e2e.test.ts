// The commands for people and scripts, spawned as a user runs them: hashline read, hash, edit,
// rollback over one project, with the history kept across runs in a private state directory;
// exit statuses 0 (ok), 1 (refused), 2 (usage); --json for scripts; per-subcommand help.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cliArgs } from '../helpers/mcp-client.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

function hashline(cwd: string, state: string, args: string[], input?: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [...cliArgs(), ...args], {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, XDG_STATE_HOME: state, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('read → edit → stale edit refused → rollback, across separate runs; exit statuses and --json', async () => {
  const sb = await makeSandbox({ 'src/a.ts': 'export function a() {\n  return 1;\n}\n' });
  const state = mkdtempSync(path.join(os.tmpdir(), 'hashline-state-'));
  try {
    const read = hashline(sb.root, state, ['read', 'src/a.ts']);
    assert.equal(read.status, 0, read.stderr);
    const tag = /¶src\/a\.ts#([0-9A-F]{4})/.exec(read.stdout)![1]!;
    assert.match(read.stdout, /2\|   return 1;/);

    const hashed = hashline(sb.root, state, ['hash', 'src/a.ts', '--json']);
    assert.equal(hashed.status, 0);
    const h = JSON.parse(hashed.stdout) as { results: Array<{ sha256: string; tag: string; size: number }> };
    assert.equal(h.results[0]!.tag, tag);
    assert.match(h.results[0]!.sha256, /^[0-9a-f]{64}$/);

    const edit = hashline(sb.root, state, ['edit', 'src/a.ts', '--tag', tag, '--ops', '-'], 'replace 2:\n+  return 2;\n');
    assert.equal(edit.status, 0, edit.stderr);
    assert.match(edit.stdout, /\+  return 2;/);
    assert.equal(readFileSync(path.join(sb.root, 'src/a.ts'), 'utf8'), 'export function a() {\n  return 2;\n}\n');

    const stale = hashline(sb.root, state, ['edit', 'src/a.ts', '--tag', tag, '--ops', '-'], 'replace 2:\n+  return 3;\n');
    assert.equal(stale.status, 1);
    assert.match(stale.stderr, /Edit rejected/);
    assert.equal(readFileSync(path.join(sb.root, 'src/a.ts'), 'utf8'), 'export function a() {\n  return 2;\n}\n');

    const back = hashline(sb.root, state, ['rollback', 'src/a.ts', '--json']);
    assert.equal(back.status, 0, back.stderr);
    assert.equal((JSON.parse(back.stdout) as { file_hash: string }).file_hash, tag);
    assert.equal(readFileSync(path.join(sb.root, 'src/a.ts'), 'utf8'), 'export function a() {\n  return 1;\n}\n');

    const window = hashline(sb.root, state, ['read', 'src/a.ts', '--lines', '2-2', '--json']);
    assert.equal(window.status, 0);
    assert.match((JSON.parse(window.stdout) as { results: Array<{ content: string }> }).results[0]!.content, /^¶src\/a\.ts#[0-9A-F]{4}\n2\|   return 1;/);

    const missing = hashline(sb.root, state, ['read', 'nope.ts']);
    assert.equal(missing.status, 1);
    const outside = hashline(sb.root, state, ['hash', '../outside/secret.txt']);
    assert.equal(outside.status, 1);
    assert.match(outside.stderr, /path_outside_root/);
    assert.doesNotMatch(outside.stdout + outside.stderr, /TOP SECRET/);

    const usage = hashline(sb.root, state, ['edit', 'src/a.ts', '--ops', '-'], '');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--tag/);
    assert.equal(hashline(sb.root, state, ['read', 'src/a.ts', '--bogus']).status, 2);
  } finally {
    rmSync(state, { recursive: true, force: true });
    await sb.cleanup();
  }
});

test('a symbol read; --help of each subcommand; a positional folder suggests --root', async () => {
  const sb = await makeSandbox({ 'm.py': 'def alpha():\n    return 1\n\ndef beta():\n    return 2\n' });
  const state = mkdtempSync(path.join(os.tmpdir(), 'hashline-state-'));
  try {
    const sym = hashline(sb.root, state, ['read', 'm.py', '--symbol', 'beta']);
    assert.equal(sym.status, 0);
    assert.match(sym.stdout, /4\| def beta\(\):\n5\|     return 2/);
    // --full shows a long definition whole; without it, its middle is elided
    const body = Array.from({ length: 40 }, (_, i) => `    x${i} = ${i}`).join('\n');
    writeFileSync(path.join(sb.root, 'long.py'), `def long():\n${body}\n    return x39\n`);
    const elided = hashline(sb.root, state, ['read', 'long.py', '--symbol', 'long']);
    assert.equal(elided.status, 0);
    assert.doesNotMatch(elided.stdout, /21\|     x19 = 19/);
    const whole = hashline(sb.root, state, ['read', 'long.py', '--symbol', 'long', '--full']);
    assert.equal(whole.status, 0);
    assert.match(whole.stdout, /21\|     x19 = 19\n22\|     x20 = 20/);
    assert.equal(hashline(sb.root, state, ['read', 'long.py', '--full']).status, 2);
    for (const cmd of ['mcp', 'serve', 'read', 'edit', 'hash', 'rollback', 'lang']) {
      const h = hashline(sb.root, state, [cmd, '--help']);
      assert.equal(h.status, 0, cmd);
      assert.match(h.stdout, new RegExp(`^Usage: hashline ${cmd}`), cmd);
    }
    const top = hashline(sb.root, state, ['--help']);
    assert.match(top.stdout, /Grammars installed: .*python/);
    const positional = hashline(sb.root, state, ['mcp', sb.root]);
    assert.equal(positional.status, 2);
    assert.match(positional.stderr, new RegExp(`give \`--root ${sb.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\``));
    // started in the home directory without --root, serve refuses to start and names --root
    const home = hashline(sb.root, state, ['serve', '--port', '0'], undefined, { HOME: sb.root });
    assert.equal(home.status, 2);
    assert.match(home.stderr, /home directory.*--root/);
  } finally {
    rmSync(state, { recursive: true, force: true });
    await sb.cleanup();
  }
});
