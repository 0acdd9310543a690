import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { mergeConfig } from '../../src/core/config.js';
import { SnapshotStore } from '../../src/core/history/snapshot-store.js';
import { historyFileFor, loadHistory, saveHistory } from '../../src/io/history-file.js';
import { createEngine } from '../../src/tools/engine.js';
import { makeSandbox } from '../helpers/tmp-tree.js';

test('a persisted history survives a restart of the engine (and stays out of the project)', async () => {
  const sb = await makeSandbox();
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const config = mergeConfig({ root: sb.root, allow: [], block: [], readAllow: [], readBlock: [] }, { history: { persist: true } });
  const a = await createEngine(config, { stateDir });
  const real = path.join(a.guard.realRoot, 'x.txt');
  const tag = a.history.record(real, 'one\n');
  a.history.record(real, 'two\n');
  a.history.markSeen(real, 'one\n', [1]);
  saveHistory(a.history, historyFileFor(a.guard.realRoot, stateDir), a.guard.realRoot);
  const file = historyFileFor(a.guard.realRoot, stateDir);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(existsSync(path.join(sb.root, '.hashline')), false);
  const b = await createEngine(config, { stateDir });
  assert.deepEqual(b.history.versions(real).map((v) => v.text), ['one\n', 'two\n']);
  assert.equal(b.history.withTag(real, tag!)[0]?.seen.has(1), true);
  await sb.cleanup();
});

test('a history file for another root, or garbage, is ignored', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hl-state-'));
  const s = new SnapshotStore();
  s.record('/r/a', 'a\n');
  const file = path.join(dir, 'h.json');
  saveHistory(s, file, '/r');
  const other = new SnapshotStore();
  loadHistory(other, file, '/other-root');
  assert.equal(other.versions('/r/a').length, 0);
  const same = new SnapshotStore();
  loadHistory(same, file, '/r');
  assert.equal(same.versions('/r/a').length, 1);
});
