// better-sqlite3's addon is found where Node's lookup would find the package (node_modules beside
// each folder up from the module, never node_modules/node_modules), by require.resolve otherwise,
// and loaded with process.dlopen; a file that is not an addon is an error the history reports.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { findSqliteAddon, loadAddon } from '../../../src/io/history/sqlite-addon.js';
import { loadSqliteModule } from '../../../src/io/history/sqlite-runner.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const ADDON = ['better-sqlite3', 'build', 'Release', 'better_sqlite3.node'];

function tree(): string {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hl-addon-')));
  return dir;
}

function place(at: string): string {
  const file = path.join(at, 'node_modules', ...ADDON);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'not really an addon');
  return file;
}

const noResolve = (id: string): string => {
  throw new Error(`resolved ${id}`);
};

test('the nearest node_modules up from the module holds the addon', () => {
  const base = tree();
  const far = place(base);
  const near = place(path.join(base, 'a'));
  mkdirSync(path.join(base, 'a', 'b', 'c'), { recursive: true });
  assert.equal(findSqliteAddon(path.join(base, 'a', 'b', 'c'), noResolve), near);
  assert.equal(findSqliteAddon(path.join(base, 'x'), noResolve), far);
});

test('a node_modules folder is not searched for node_modules; nothing found falls to require.resolve', () => {
  const base = tree();
  // base/pkg/node_modules/node_modules/... is where Node never looks
  place(path.join(base, 'pkg', 'node_modules'));
  const asked: string[] = [];
  const resolve = (id: string) => (asked.push(id), '/resolved/by/require');
  assert.equal(findSqliteAddon(path.join(base, 'pkg', 'node_modules'), resolve), '/resolved/by/require');
  assert.deepEqual(asked, ['better-sqlite3/build/Release/better_sqlite3.node']);
});

test('the installed addon loads and gives the Database class; a file that is not one is a clear error', () => {
  const addon = loadAddon(findSqliteAddon()) as { Database?: unknown };
  assert.equal(typeof addon.Database, 'function');
  const base = tree();
  const fake = place(base);
  assert.throws(() => loadAddon(fake), /invalid ELF header|not a valid|file too short|wrong ELF class|cannot open/);
  const viaEnv = loadSqliteModule({ HASHLINE_SQLITE_BINDING: fake });
  assert.ok('error' in viaEnv);
  assert.equal(viaEnv.error.includes('\n'), false);
  const missing = loadSqliteModule({ HASHLINE_SQLITE_BINDING: path.join(base, 'none.node') });
  assert.ok('error' in missing);
  const real = loadSqliteModule({});
  assert.ok(!('error' in real));
});
