// The history's SQLite is Node's own (node:sqlite): it loads without Node 22's experimental
// warning (that warning only, only while it loads: others still print), opens a store, and a Node
// without it is an error the history reports in one line.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { loadSqliteModule, withoutSqliteWarning } from '../../../src/io/history/node-sqlite.js';
import { REPO } from '../../helpers/mcp-client.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

test('a fresh process loads node:sqlite and opens a store with no warning on stderr; other warnings still print', () => {
  const script = `
    import { loadSqliteModule } from './src/io/history/node-sqlite.ts';
    const m = loadSqliteModule();
    if ('error' in m) throw new Error(m.error);
    const db = m.open(':memory:');
    db.exec('CREATE TABLE t (x)');
    console.log(JSON.stringify(db.prepare('SELECT 1 AS one').all()));
    process.emitWarning('another feature is experimental', 'ExperimentalWarning');
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '[{"one":1}]\n');
  assert.doesNotMatch(r.stderr, /SQLite/);
  assert.match(r.stderr, /ExperimentalWarning: another feature is experimental/);
});

test('only the SQLite experimental warning is dropped, and only inside the load', async () => {
  const seen: string[] = [];
  const listen = (w: Error) => seen.push(`${w.name}: ${w.message}`);
  process.on('warning', listen);
  const before = process.emitWarning;
  try {
    withoutSqliteWarning(() => {
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
      process.emitWarning('SQLite is slow today', 'Warning');
      process.emitWarning('Fetch is an experimental feature', { type: 'ExperimentalWarning' });
    });
    assert.equal(process.emitWarning, before);
    process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
    await nextTurn();
  } finally {
    process.off('warning', listen);
  }
  assert.deepEqual(seen, [
    'Warning: SQLite is slow today',
    'ExperimentalWarning: Fetch is an experimental feature',
    'ExperimentalWarning: SQLite is an experimental feature and might change at any time',
  ]);
});

test('a Node without the module is a one-line error naming the Node that has it', () => {
  const missing = loadSqliteModule({ HASHLINE_SQLITE_MODULE: 'node:no-such-sqlite' });
  assert.ok('error' in missing);
  assert.equal(missing.error, `node:no-such-sqlite is not in Node ${process.version}; Node 22.13 or later has it`);
  assert.ok(!('error' in loadSqliteModule({})));
});
