// Runs the node:test suite on the TypeScript sources (through tsx). It finds the files itself (one
// list on every Node): every *.test.ts under test/, or under the folders/files given.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function collect(p, out) {
  const st = statSync(p);
  if (st.isFile()) {
    if (p.endsWith('.test.ts')) out.push(p);
    return;
  }
  for (const e of readdirSync(p).sort()) {
    if (e === 'fixtures' || e === 'node_modules') continue;
    collect(path.join(p, e), out);
  }
}

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const files = [];
for (const r of roots.length ? roots : ['test']) collect(r, files);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The history is durable by default (SQLite under $XDG_STATE_HOME/hashline/): every engine the tests
// start, in this process or a spawned server, keeps it in a state directory of this run, removed after.
const stateHome = mkdtempSync(path.join(os.tmpdir(), 'hashline-test-state-'));
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...flags, ...files],
  { stdio: 'inherit', env: { ...process.env, XDG_STATE_HOME: stateHome } },
);
child.on('exit', (code, signal) => {
  rmSync(stateHome, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
