// Several processes share one root's SQLite store: writers started together (their commits
// interleave under the busy timeout) lose nothing, each sees the others' versions, and the file
// passes SQLite's integrity check afterwards.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_HISTORY } from '../../../src/core/history/history-settings.js';
import { historyStoreFor } from '../../../src/io/history/history-file.js';
import { openHistory } from '../../../src/io/history/open-history.js';
import { REPO } from '../../helpers/mcp-client.js';
import { loadSqliteModule } from '../../../src/io/history/node-sqlite.js';

const WRITER = path.join(REPO, 'test/fixtures/scripts/history-writer.ts');

function runWriter(root: string, state: string, name: string, count: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, root, state, name, String(count)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`writer ${name} exited ${code}: ${err}`))));
  });
}

test('three processes write one store at once: every version is there, integrity ok', async () => {
  const state = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const root = '/projects/shared-root';
  try {
    const outs = await Promise.all(['w1', 'w2', 'w3'].map((n) => runWriter(root, state, n, 150)));
    assert.deepEqual(outs, ['done\n', 'done\n', 'done\n']);
    const h = await openHistory(DEFAULT_HISTORY, { realRoot: root, stateDir: state, background: false });
    const q = h.query!;
    const feed = await q.feed({ limit: 1000 });
    assert.equal(feed.length, 450);
    for (const n of ['w1', 'w2', 'w3']) {
      assert.equal(feed.filter((e) => e.client === n).length, 150);
      // each writer's own path: the newest 10 of its 75 versions are what the tools see
      assert.deepEqual(h.versions(`${root}/${n}.txt`).map((v) => v.text), Array.from({ length: 10 }, (_, k) => `${n} version ${131 + 2 * k}\n`));
      assert.ok(h.versions(`${root}/${n}.txt`).every((v) => v.seen.has(1)));
    }
    assert.equal(h.versions(`${root}/shared.txt`).length, 10);
    await h.close();
    const sqlite = loadSqliteModule();
    assert.ok(!('error' in sqlite));
    const db = sqlite.open(historyStoreFor(root, state));
    assert.deepEqual({ ...db.prepare('PRAGMA integrity_check').all()[0] }, { integrity_check: 'ok' });
    db.close();
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});
