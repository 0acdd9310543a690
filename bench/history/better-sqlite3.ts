// better-sqlite3 (the native module the history used before node:sqlite) behind the history's
// SqliteModule, so `npm run bench:history` can time the same store, SQL and runner on both. It is
// not a dependency: the bench finds it where BENCH_BETTER_SQLITE3 points (a package folder) or
// where Node's lookup does (`npm install --no-save better-sqlite3`, built for the running Node).

import { createRequire } from 'node:module';
import path from 'node:path';
import type { Row } from '../../src/io/history/history-sql.js';
import type { SqliteModule } from '../../src/io/history/node-sqlite.js';

interface Statement {
  readonly reader: boolean;
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): unknown;
}
interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  close(): void;
}

/** better-sqlite3 as a SqliteModule, or why it cannot be used here. */
export function loadBetterSqlite3(env: NodeJS.ProcessEnv = process.env): SqliteModule | { error: string } {
  const require = createRequire(import.meta.url);
  let Database: new (file: string) => Database;
  try {
    Database = require(env.BENCH_BETTER_SQLITE3 ? path.resolve(env.BENCH_BETTER_SQLITE3) : 'better-sqlite3') as typeof Database;
    new Database(':memory:').close();
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0]! };
  }
  // better-sqlite3 takes a Buffer for a BLOB (not any Uint8Array), and runs a statement that returns no rows with run()
  const bind = (p: unknown) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p);
  return {
    open(file) {
      const db = new Database(file);
      return {
        prepare(sql) {
          const st = db.prepare(sql);
          return { all: (...params) => (st.reader ? st.all(...params.map(bind)) : (st.run(...params.map(bind)), [])) };
        },
        exec: (sql) => db.exec(sql),
        close: () => db.close(),
      };
    },
  };
}
