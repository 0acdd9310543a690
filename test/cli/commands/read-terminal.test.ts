// `hashline read` of a file holding terminal escape sequences (written by an agent): on a real
// terminal (a pseudo terminal made by util-linux `script`) the sequences are shown escaped and
// never reach the terminal raw; piped, the bytes pass unchanged; `--json` escapes them as JSON.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CLI_SOURCE, REPO } from '../../helpers/mcp-client.js';
import { makeSandbox, type Sandbox } from '../../helpers/tmp-tree.js';

const EVIL = 'title\u001b]0;pwned\u0007 clear\u001b[2J\u001b[H back\u0008space \u009b31m red\n';
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

let sb: Sandbox;
let state: string;
before(async () => {
  sb = await makeSandbox({ 'evil.txt': EVIL });
  state = await fsp.mkdtemp(path.join(os.tmpdir(), 'hashline-state-'));
});
after(async () => {
  rmSync(state, { recursive: true, force: true });
  await sb.cleanup();
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, XDG_STATE_HOME: state, CLI: CLI_SOURCE, ROOT: sb.root, ...extra };
}

/** Runs `hashline read evil.txt ARGS` under a pseudo terminal; what the terminal received. */
function onTerminal(args: string, extra: Record<string, string> = {}): string {
  const r = spawnSync('script', ['-qec', `"${process.execPath}" --import tsx "$CLI" read evil.txt --root "$ROOT" ${args}`, '/dev/null'], {
    cwd: REPO,
    env: env(extra),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  return r.stdout;
}

test('on a terminal: the sequences are shown escaped, none reaches the terminal raw', (t) => {
  if (!hasScript) return t.skip('util-linux `script` is not installed: no pseudo terminal to test on');
  const plain = onTerminal('', { NO_COLOR: '1' });
  assert.match(plain, /1\| title\\x1b\]0;pwned\\x07 clear\\x1b\[2J\\x1b\[H back\\x08space \\x9b31m red/);
  assert.ok(!plain.includes('\u001b') && !plain.includes('\u0007') && !plain.includes('\u0008') && !plain.includes('\u009b'), JSON.stringify(plain));
  // with colours on, the only raw ESC bytes are hashline's own SGR colours
  const coloured = onTerminal('', { NO_COLOR: '' });
  assert.ok(coloured.includes('\\x1b]0;pwned'), JSON.stringify(coloured));
  const foreign = coloured.replace(/\u001b\[[0-9;]*m/g, '');
  assert.ok(!foreign.includes('\u001b') && !foreign.includes('\u0007'), JSON.stringify(foreign));
});

test('--json on a terminal: JSON escaping applies', (t) => {
  if (!hasScript) return t.skip('util-linux `script` is not installed: no pseudo terminal to test on');
  const out = onTerminal('--json', { NO_COLOR: '1' });
  assert.ok(out.includes('\\u001b]0;pwned\\u0007'), out);
  assert.ok(!out.includes('\u001b'), JSON.stringify(out));
});

test('piped: the bytes pass unchanged', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI_SOURCE, 'read', 'evil.txt', '--root', sb.root], { cwd: REPO, env: env(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes('1| title\u001b]0;pwned\u0007 clear\u001b[2J'), JSON.stringify(r.stdout));
});
