// Loads the SQLite built into Node (`node:sqlite`, Node 22.13 and later) for the history store, with
// Node 22's "SQLite is an experimental feature" warning dropped: only that warning, only while the
// module loads (Node 24 does not print it). No native addon is built or loaded from node_modules.

import type { Row } from './history-sql.js';

/** A prepared statement: `all` runs it and returns its rows (none for a statement that returns none). */
export interface SqliteStatement {
  all(...params: unknown[]): Row[];
}

/** One connection, the parts of node:sqlite's DatabaseSync the history uses. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  close(): void;
}

/** Opens a connection to a database file (created when missing). */
export interface SqliteModule {
  open(file: string): SqliteConnection;
}

type DatabaseSyncClass = new (file: string) => SqliteConnection;

/** Runs `load` with the ExperimentalWarning about SQLite dropped; every other warning goes through. */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const name = typeof warning === 'string' ? type : warning.name;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (name === 'ExperimentalWarning' && /\bSQLite\b/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * node:sqlite, or why it cannot be used. HASHLINE_SQLITE_MODULE names another built-in module to
 * load instead (one that is not there makes SQLite unavailable: how the fallback to memory is tested).
 */
export function loadSqliteModule(env: NodeJS.ProcessEnv = process.env): SqliteModule | { error: string } {
  const id = env.HASHLINE_SQLITE_MODULE || 'node:sqlite';
  let found: { DatabaseSync?: DatabaseSyncClass } | undefined;
  try {
    found = withoutSqliteWarning(() => process.getBuiltinModule?.(id) as { DatabaseSync?: DatabaseSyncClass } | undefined);
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0]! };
  }
  const DatabaseSync = found?.DatabaseSync;
  if (typeof DatabaseSync !== 'function') return { error: `${id} is not in Node ${process.version}; Node 22.13 or later has it` };
  return { open: (file) => new DatabaseSync(file) };
}
