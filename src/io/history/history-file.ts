// Where a root's history lives under the user's state directory ($XDG_STATE_HOME/hashline/, default
// ~/.local/state/hashline/; never inside the project), and the JSON file of 0.1's `persistHistory`,
// read once to migrate it into the durable store.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SnapshotStore, type HistoryState } from '../../core/history/snapshot-store.js';

const FORMAT = 1;

/** The per-user state directory of hashline. */
export function stateDirFor(stateDir?: string, env: NodeJS.ProcessEnv = process.env): string {
  const base = stateDir ?? (env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state'));
  return path.join(base, 'hashline');
}

function rootId(realRoot: string): string {
  return createHash('sha256').update(realRoot).digest('hex').slice(0, 16);
}

/** The SQLite store of a root. */
export function historyStoreFor(realRoot: string, stateDir?: string): string {
  return path.join(stateDirFor(stateDir), `history-${rootId(realRoot)}.sqlite`);
}

/** The 0.1 JSON history file of a root. */
export function historyFileFor(realRoot: string, stateDir?: string): string {
  return path.join(stateDirFor(stateDir), `history-${rootId(realRoot)}.json`);
}

/**
 * Reads a 0.1 JSON history file for `realRoot`: undefined when there is none; a file that is
 * unreadable, of another root or of another format is reported through `report` and yields undefined.
 */
export function readLegacyHistory(file: string, realRoot: string, report: (message: string) => void): SnapshotStore | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(raw) as { format?: number; root?: string; state?: HistoryState };
    if (parsed.format !== FORMAT || parsed.root !== realRoot || !parsed.state || !Array.isArray(parsed.state.paths)) {
      report(`history file ${file} is not a history of ${realRoot}; left as it is`);
      return undefined;
    }
    const store = new SnapshotStore();
    store.importState(parsed.state);
    return store;
  } catch {
    report(`history file ${file} is unreadable; left as it is`);
    return undefined;
  }
}
