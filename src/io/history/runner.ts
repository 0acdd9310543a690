// The contract between the durable history and its database: one runner per store, synchronous
// (SQLite, sqlite-runner.ts) or asynchronous (PostgreSQL, pg-runner.ts), running the dialect's
// operations of history-sql.ts each in one transaction.

import type { Dialect, Op } from './history-sql.js';

/** Runs operations against one database. */
export interface Runner {
  readonly dialect: Dialect;
  /** Where the store is, for messages (never a password). */
  readonly location: string;
  /** A message about this store with its credentials masked (core/history/redact-url.ts). */
  redact?(text: string): string;
  /** Synchronous runner: runs the operation in one transaction and returns its result. */
  runSync?<T>(op: () => Op<T>, write: boolean): T;
  /** Synchronous runner: a number that changes when another connection commits. */
  stamp?(): number;
  run<T>(op: () => Op<T>, write: boolean): Promise<T>;
  /** Bytes of the store's files, when it has files. */
  fileBytes?(): number;
  close(): Promise<void>;
}
