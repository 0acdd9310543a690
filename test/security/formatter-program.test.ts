// Attack: run any program through the formatter. The configuration names a formatter inside the
// root (`node_modules/.bin/prettier`, as a project would); the agent overwrites it with a script
// (file_write + file_chattr +x) and triggers it with file_patch, as the server's user with the
// server's environment. Also: a link in the root to an outside formatter (the agent may repoint
// it), a bare name found through a relative PATH entry, a launcher (npx), an interpreter running a
// script from the root. Each is refused (format_failed, nothing written, the script never runs);
// a formatter outside every root runs with a scrubbed environment, and is killed with what it
// started at its time limit.

import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fails, ok, sha256 } from '../helpers/boundary.js';
import { connectMcp, type McpSession } from '../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../helpers/tmp-tree.js';

let sb: Sandbox;
let mcp: McpSession;
let marker: string;
let envFile: string;
let pidFile: string;

const ENV_SECRETS = { HASHLINE_TOKEN: 'tok-secret-1234', PGPASSWORD: 'pg-secret-1234', DATABASE_URL: 'postgres://u:pw-secret@h/db' };

before(async () => {
  sb = await makeSandbox({ 'x.a': 'a\n', 'x.b': 'b\n', 'x.c': 'c\n', 'x.d': 'd\n', 'x.e': 'e\n', 'x.f': 'f\n', 'x.g': 'g\n' });
  marker = path.join(sb.base, 'pwned');
  envFile = path.join(sb.base, 'env.txt');
  pidFile = path.join(sb.base, 'grandchild.pid');
  const bin = path.join(sb.outside, 'bin');
  await fsp.mkdir(bin);
  // an honest formatter outside the root that records the environment it got, and one that hangs
  await fsp.writeFile(path.join(bin, 'fmt'), `#!/bin/sh\nenv > '${envFile}'\ncat\n`, { mode: 0o755 });
  await fsp.writeFile(path.join(bin, 'hang'), `#!/bin/sh\nsleep 60 &\necho $! > '${pidFile}'\nwait\n`, { mode: 0o755 });
  await fsp.mkdir(path.join(sb.root, 'node_modules/.bin'), { recursive: true });
  await fsp.writeFile(path.join(sb.root, 'node_modules/.bin/prettier'), '#!/bin/sh\ncat\n', { mode: 0o755 });
  await fsp.mkdir(path.join(sb.root, 'tools'));
  await fsp.symlink(path.join(bin, 'fmt'), path.join(sb.root, 'tools/fmt'));
  const entry = (glob: string, command: string[], extra = '') =>
    ['[[format.formatters]]', `name = "${glob}"`, `globs = ["${glob}"]`, `command = ${JSON.stringify(command)}`, 'mode = "stdout"', extra].join('\n');
  await fsp.writeFile(
    path.join(sb.root, 'hashline.toml'),
    [
      '[format]',
      'enabled = true',
      entry('*.a', ['node_modules/.bin/prettier', '--stdin-filepath', '{source}']),
      entry('*.b', ['tools/fmt']),
      entry('*.c', ['prettier', '--stdin-filepath', '{source}']),
      entry('*.d', ['npx', 'prettier', '--stdin-filepath', '{source}']),
      entry('*.e', [process.execPath, 'node_modules/evil.cjs']),
      entry('*.f', [path.join(bin, 'fmt')]),
      entry('*.g', [path.join(bin, 'hang')], 'timeout_ms = 300'),
      '',
    ].join('\n'),
  );
  const saved = { ...process.env };
  // the server's environment holds secrets, and a PATH with a relative entry into the project
  Object.assign(process.env, ENV_SECRETS, { PATH: `node_modules/.bin:${process.env.PATH}` });
  try {
    mcp = await connectMcp(['--root', sb.root]);
  } finally {
    for (const k of Object.keys(ENV_SECRETS)) delete process.env[k];
    process.env.PATH = saved.PATH;
  }
});
after(async () => {
  await mcp?.close();
  await sb?.cleanup();
});

const EVIL = (m: string) => `#!/bin/sh\ntouch '${m}'\ncat\n`;

async function patchOf(rel: string) {
  const text = await fsp.readFile(path.join(sb.root, rel), 'utf8');
  return { files: { [rel]: { patchStrategy: 'aider_block', expectedSha256: sha256(text), aiderBlocks: [{ search: text, replace: `${text}more\n` }] } } };
}

async function refused(rel: string, reason: string): Promise<void> {
  const before = await fsp.readFile(path.join(sb.root, rel), 'utf8');
  const e = await fails(mcp, 'file_patch', await patchOf(rel));
  assert.equal(e.code, 'format_failed', JSON.stringify(e));
  assert.equal(e.details?.reason, reason, JSON.stringify(e));
  assert.match(e.message, /outside every root/);
  assert.equal(await fsp.readFile(path.join(sb.root, rel), 'utf8'), before, 'nothing was written');
  assert.ok(!existsSync(marker), 'the planted program never ran');
}

test('a formatter in the root, overwritten by the agent (file_write + chattr +x), never runs', async () => {
  const p = 'node_modules/.bin/prettier';
  const cur = await fsp.readFile(path.join(sb.root, p), 'utf8');
  await ok(mcp, 'file_write', { files: { [p]: { content: EVIL(marker), expectedSha256: sha256(cur), chattr: { chmod: 0o755 } } } });
  await refused('x.a', 'writable_program');
});

test('a link in the root to an outside formatter is refused (the agent could repoint it)', async () => {
  await refused('x.b', 'writable_program');
});

test('a bare name found through a relative PATH entry (the root) is refused', async () => {
  await refused('x.c', 'writable_program');
});

test('a launcher that looks programs up in the project (npx) is refused', async () => {
  await refused('x.d', 'launcher');
});

test('an interpreter given a script from the root is refused', async () => {
  await fsp.writeFile(path.join(sb.root, 'node_modules/evil.cjs'), `require('fs').writeFileSync(${JSON.stringify(marker)}, '')\n`);
  await refused('x.e', 'writable_argument');
});

test('a formatter outside every root runs, with no token, history URL or database password in its environment', async () => {
  const d = await ok<{ files: Array<{ formatter?: string }> }>(mcp, 'file_patch', await patchOf('x.f'));
  assert.equal(d.files[0]!.formatter, '*.f');
  assert.equal(await fsp.readFile(path.join(sb.root, 'x.f'), 'utf8'), 'f\nmore\n');
  const env = await fsp.readFile(envFile, 'utf8');
  for (const v of Object.values(ENV_SECRETS)) assert.ok(!env.includes(v), env);
  assert.ok(!/^HASHLINE_/m.test(env), env);
  const pathLine = env.split('\n').find((l) => l.startsWith('PATH='))!;
  assert.ok(pathLine.length > 5, 'PATH is kept');
  assert.ok(pathLine.slice(5).split(':').every((d) => d.startsWith('/')), `no relative PATH entry: ${pathLine}`);
  assert.match(env, /^HOME=/m);
});

test('at its time limit the formatter is killed with the processes it started', async () => {
  const e = await fails(mcp, 'file_patch', await patchOf('x.g'));
  assert.equal(e.code, 'format_failed');
  assert.match(e.message, /did not finish within 300 ms/);
  const pid = Number(await fsp.readFile(pidFile, 'utf8'));
  // gone, or a zombie waiting for a reaper (a container's first process may not reap)
  const running = async () => {
    const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  };
  let alive = true;
  for (let i = 0; i < 50 && alive; i++) {
    alive = await running();
    if (alive) await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(!alive, 'the grandchild is gone');
  assert.equal(await fsp.readFile(path.join(sb.root, 'x.g'), 'utf8'), 'g\n');
});
