// Runs the node:test suite on the TypeScript sources (through tsx). It finds the files itself (one
// list on every Node): every *.test.ts under test/, or under the folders/files given.
// - The end-to-end tests drive the built bin (test/helpers/cli.ts): a bin older than src/ is
//   built first.
// - Files run HASHLINE_TEST_CONCURRENCY at a time (default 4: most files wait on processes,
//   sockets and disks more than they compute), the slowest of the last run first (then the
//   ones known to be slow), so a long file never starts last.
// - Each test, and each file, has 10 minutes (a deadlock fails instead of hanging the run); in
//   test-stress/, an hour.
// - The end of the run prints the 10 slowest files.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/hashline.mjs');

/** Files known to take longest, started first when no earlier run's durations are at hand. */
const SLOW_FIRST = [
  'test/stress/stress-kill-short.test.ts',
  'test/stress/stress-short.test.ts',
  'test/stress/stress-server-short.test.ts',
  'test/mcp/stdio-e2e.test.ts',
  'test/http/tar/tar-extract-members.test.ts',
  'test/core/merge/merge-properties.test.ts',
  'test/cli/commands.e2e.test.ts',
  'test/examples/examples.test.ts',
  'test/core/aider/cascade-property.test.ts',
  'test/cli/history-command.test.ts',
];

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

function newestMtime(dir) {
  let max = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    max = Math.max(max, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return max;
}

const args = process.argv.slice(2);
const roots = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));
const found = [];
for (const r of roots.length ? roots : ['test']) collect(r, found);
if (found.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

if (!existsSync(BIN) || statSync(BIN).mtimeMs < newestMtime(path.join(REPO, 'src'))) {
  console.log('# bin/hashline.mjs is missing or older than src/: building it first (npm run build)');
  const built = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// durations of the last run on this checkout, kept outside it
const cacheFile = path.join(os.tmpdir(), 'hashline-test-durations', `${createHash('sha256').update(REPO).digest('hex').slice(0, 16)}.json`);
let last = {};
try {
  last = JSON.parse(readFileSync(cacheFile, 'utf8'));
} catch {
  last = {};
}
const rel = (f) => path.relative(REPO, path.resolve(f));
const weight = (f) => last[rel(f)] ?? (SLOW_FIRST.includes(rel(f)) ? 1e9 - SLOW_FIRST.indexOf(rel(f)) : 0);
const files = [...found].sort((a, b) => weight(b) - weight(a));

const concurrency = Number(process.env.HASHLINE_TEST_CONCURRENCY) || 4;
// the full stress suite's parts run for minutes (a 1,000,000-case fuzz, 200 kill trials)
// (node's runner applies it to each file's process too, so it is generous: a file of many tests on a
// loaded machine ran past 120 s)
// the packed-tarball test's npm installs (the package and its grammars, then `ai`) take minutes on a loaded machine too
const timeout = roots.some((r) => rel(r).startsWith('test-stress') || rel(r).startsWith('test-pack')) ? 3_600_000 : 600_000;
// The history is durable by default (SQLite under $XDG_STATE_HOME/hashline/): every engine the tests
// start, in this process or a spawned server, keeps it in a state directory of this run, removed after.
const stateHome = mkdtempSync(path.join(os.tmpdir(), 'hashline-test-state-'));
const durationsFile = path.join(stateHome, 'durations.jsonl');
const started = Date.now();
const child = spawn(
  process.execPath,
  [
    '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeout}`,
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(REPO, 'scripts/test-durations.mjs')}`, `--test-reporter-destination=${durationsFile}`,
    ...flags, ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, XDG_STATE_HOME: stateHome } },
);
child.on('exit', (code, signal) => {
  try {
    const rows = readFileSync(durationsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    rows.sort((a, b) => b.ms - a.ms);
    console.log(`\n# ${rows.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s (${concurrency} at a time); the slowest:`);
    for (const r of rows.slice(0, 10)) console.log(`#   ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${rel(r.file)}${r.passed ? '' : '  (failed)'}`);
    const next = { ...last };
    for (const r of rows) next[rel(r.file)] = r.ms;
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileSync(cacheFile, JSON.stringify(next));
  } catch (e) {
    console.log(`# no per-file durations: ${e.message}`);
  }
  rmSync(stateHome, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
