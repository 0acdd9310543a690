// The PostgreSQL store through `pg` (asynchronous), for fleets: many sandboxes' servers write one
// audit trail, each under its own root name. Same schema and queries as SQLite (history-sql.ts):
// `?` placeholders become `$n`, a query marked forUpdate locks its rows, and a transaction that
// loses a serialization race or a deadlock is run again. The schema is made under an advisory lock
// so that servers starting together do not race on CREATE TABLE. Every write transaction first takes
// one transaction-level advisory lock, so writes commit one at a time and in the order of the ids
// they take: the console's feed follows the log by id (`after`), and with concurrent writers a
// lower id committed after a higher one would otherwise be skipped. Writes are a few short queries.

import type { Pool, PoolClient } from 'pg';
import { checkSchema, schemaStatements, type Op, type Query, type Row } from './history-sql.js';
import type { Runner } from './runner.js';
import { redactText, redactUrl } from '../../core/history/redact-url.js';

const RETRY_CODES = new Set(['40001', '40P01']);
const SCHEMA_LOCK = 0x6861_7368; // "hash"
/** Held by every write transaction until it ends: ids commit in id order. */
export const LOG_ORDER_LOCK = 0x6c6f_6721; // "log!"

/** The `pg` package: an optional peer dependency, installed by those who keep the history in PostgreSQL. */
async function loadPg(): Promise<typeof import('pg')['default']> {
  try {
    return (await import('pg')).default;
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND' || !/'pg'/.test((e as Error).message)) throw e;
    throw new Error('the `pg` package is not installed: add it beside hashline (`npm install pg`, or `npx -p hashline -p pg hashline ...`)');
  }
}

/** `?` → `$1, $2 ...` (the queries hold no `?` inside strings). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export { redactUrl };

export class PgRunner implements Runner {
  readonly dialect = 'postgres' as const;
  readonly location: string;
  private readonly texts = new Map<string, string>();

  private constructor(
    private readonly pool: Pool,
    private readonly url: string,
  ) {
    this.location = redactUrl(url);
  }

  redact(text: string): string {
    return redactText(text, this.url);
  }

  static async connect(url: string): Promise<PgRunner> {
    const pg = await loadPg();
    // BIGINT columns (ids, times, sizes) fit in a double: read them as numbers, not strings
    const types = { getTypeParser: (oid: number, format?: string) => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) };
    const pool = new pg.Pool({ connectionString: url, max: 4, idleTimeoutMillis: 10_000, types: types as never });
    pool.on('error', () => undefined); // an idle client's error is met again by the next query
    const runner = new PgRunner(pool, url);
    await runner.withClient(async (c) => {
      await c.query('BEGIN');
      try {
        await c.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        for (const s of schemaStatements('postgres')) await c.query(s);
        await runner.execIn(c, () => checkSchema());
        await c.query('COMMIT');
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
    return runner;
  }

  private async withClient<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      return await fn(c);
    } finally {
      c.release();
    }
  }

  private sqlOf(q: Query): string {
    const key = q.forUpdate ? `${q.sql}\u0000u` : q.sql;
    let s = this.texts.get(key);
    if (s === undefined) {
      s = numbered(q.sql) + (q.forUpdate ? ' FOR UPDATE' : '');
      this.texts.set(key, s);
    }
    return s;
  }

  private async execIn<T>(c: PoolClient, op: () => Op<T>): Promise<T> {
    const gen = op();
    let step = gen.next();
    while (!step.done) {
      const params = step.value.params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
      const res = await c.query(this.sqlOf(step.value), params as unknown[]);
      step = gen.next((res.rows ?? []) as Row[]);
    }
    return step.value;
  }

  async run<T>(op: () => Op<T>, write: boolean): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.withClient(async (c) => {
          await c.query(write ? 'BEGIN' : 'BEGIN READ ONLY');
          try {
            if (write) await c.query('SELECT pg_advisory_xact_lock($1)', [LOG_ORDER_LOCK]);
            const out = await this.execIn(c, op);
            await c.query('COMMIT');
            return out;
          } catch (e) {
            await c.query('ROLLBACK').catch(() => undefined);
            throw e;
          }
        });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (attempt < 5 && code !== undefined && RETRY_CODES.has(code)) continue;
        throw e;
      }
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
