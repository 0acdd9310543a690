// Keeps the session history across restarts when `persistHistory` is on: one private JSON file per
// project root under the user's state directory (never inside the project), written atomically a
// moment after each change and once more at exit.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistoryState, SnapshotStore } from '../core/history/snapshot-store.js';

const FORMAT = 1;

export function historyFileFor(realRoot: string, stateDir?: string): string {
  const base = stateDir ?? process.env.XDG_STATE_HOME ?? path.join(os.homedir(), '.local', 'state');
  const id = createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
  return path.join(base, 'hashline', `history-${id}.json`);
}

export function loadHistory(store: SnapshotStore, file: string, realRoot: string): void {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  try {
    const parsed = JSON.parse(raw) as { format?: number; root?: string; state?: HistoryState };
    if (parsed.format !== FORMAT || parsed.root !== realRoot || !parsed.state || !Array.isArray(parsed.state.paths)) return;
    store.importState(parsed.state);
  } catch {
    process.stderr.write(`hashline: ignoring unreadable history file ${file}\n`);
  }
}

export function saveHistory(store: SnapshotStore, file: string, realRoot: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ format: FORMAT, root: realRoot, state: store.exportState() }), { mode: 0o600 });
  renameSync(tmp, file);
}

/** Loads the history now and saves it 250 ms after each change and at process exit. */
export function persistHistory(store: SnapshotStore, file: string, realRoot: string): () => void {
  loadHistory(store, file, realRoot);
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    try {
      saveHistory(store, file, realRoot);
    } catch (e) {
      process.stderr.write(`hashline: cannot save history to ${file}: ${(e as Error).message}\n`);
    }
  };
  store.onChange = () => {
    if (!timer) timer = setTimeout(flush, 250).unref();
  };
  process.on('exit', () => {
    if (timer) flush();
  });
  return flush;
}
