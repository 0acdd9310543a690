// The line --help adds about the history on this machine: whether the default durable store
// (node:sqlite, built into Node 22.13 and later) is here, or what a server will fall back to.

import { loadSqliteModule } from '../io/history/node-sqlite.js';

export function historyHelpLine(): string {
  const m = loadSqliteModule();
  return 'error' in m
    ? `\nHistory: SQLite unavailable here (${m.error}); servers start on the in-memory history.\n`
    : '\nHistory: SQLite available (the default durable store).\n';
}
