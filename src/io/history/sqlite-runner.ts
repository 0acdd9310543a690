// The SQLite store through node:sqlite (built into Node, synchronous): one file per root, mode
// 0600, in WAL mode with synchronous=NORMAL (a commit survives a crash of the process; a power loss
// can take the last commits back; `--durability fsync` asks for FULL) and a busy timeout, so several processes (an MCP server per client
// plus `hashline serve`) share it. Opened on first use, so a server answers its first messages
// without paying for it. A file that is not a database, or fails its check, is moved aside (never
// emptied in place) and reported; a fresh store is started beside it.

import { closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, constants } from 'node:fs';
import path from 'node:path';
import { checkSchema, schemaStatements, type Op, type Query, type Row } from './history-sql.js';
import type { Runner } from './runner.js';
import type { SqliteConnection, SqliteModule, SqliteStatement } from './node-sqlite.js';

/** SQLite's result codes for a damaged file: SQLITE_CORRUPT (11, and its extended codes) and SQLITE_NOTADB (26). */
function isCorruption(e: unknown): boolean {
  const errcode = (e as { errcode?: unknown })?.errcode;
  return typeof errcode === 'number' && ((errcode & 0xff) === 11 || (errcode & 0xff) === 26);
}

/** The value of a pragma that answers one row of one column. */
function pragmaValue(db: SqliteConnection, pragma: string): unknown {
  const row = db.prepare(`PRAGMA ${pragma}`).all()[0];
  return row === undefined ? undefined : Object.values(row)[0];
}

/** Creates the file owner-only (before SQLite does with the umask's mode) and keeps it so. */
function prepareFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** Moves the store (and its -wal and -shm) aside; returns the new name. */
export function moveAside(file: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.corrupt-${stamp}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix);
  return aside;
}

/**
 * A zero-length byte array whose buffer has no memory (TextEncoder's `encode('')`, an empty file's
 * bytes) is bound by node:sqlite as NULL, not as an empty blob: an empty version then broke the
 * store's NOT NULL rule and the whole history fell back to memory. Such a value is bound as a view
 * of length 0 on a buffer that has memory.
 */
const EMPTY_BLOB = new Uint8Array(new ArrayBuffer(1), 0, 0);
const isEmptyBytes = (p: unknown): boolean => p instanceof Uint8Array && p.length === 0;
/** The parameters as bound: the same array unless one is such an empty value. */
function boundAs(params: readonly unknown[]): readonly unknown[] {
  return params.some(isEmptyBytes) ? params.map((p) => (isEmptyBytes(p) ? EMPTY_BLOB : p)) : params;
}

export class SqliteRunner implements Runner {
  readonly dialect = 'sqlite' as const;
  private handle: SqliteConnection | undefined;
  private readonly stmts = new Map<string, SqliteStatement>();
  private dataVersion: SqliteStatement | undefined;

  constructor(
    readonly location: string,
    private readonly module: SqliteModule,
    private readonly report: (message: string) => void,
    /** synchronous=FULL (`--durability fsync`): a commit survives a power loss too. */
    private readonly fullSync = false,
  ) {}

  /** A marker left when corruption was met at run time: the next open checks the whole file. */
  private get checkMarker(): string {
    return `${this.location}.check`;
  }

  private openOnce(): SqliteConnection {
    prepareFile(this.location);
    const db = this.module.open(this.location);
    try {
      // first, so that what follows waits for another process's lock instead of failing
      db.exec('PRAGMA busy_timeout = 10000');
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(this.fullSync ? 'PRAGMA synchronous = FULL' : 'PRAGMA synchronous = NORMAL');
      // the statement journals of multi-row writes (history-batch-sql.ts) in memory: in temporary
      // files they were written again and again (about 20 MB per rewrite of 2,000 files)
      db.exec('PRAGMA temp_store = MEMORY');
      if (existsSync(this.checkMarker)) {
        const result = pragmaValue(db, 'quick_check');
        if (result !== 'ok') throw Object.assign(new Error(`integrity check: ${String(result)}`), { errcode: 11 });
        rmSync(this.checkMarker, { force: true });
      }
      transaction(db, true, () => {
        for (const s of schemaStatements('sqlite')) db.exec(s);
        this.execIn(db, () => checkSchema());
      });
      return db;
    } catch (e) {
      db.close();
      this.stmts.clear();
      throw e;
    }
  }

  private db(): SqliteConnection {
    if (this.handle) return this.handle;
    try {
      this.handle = this.openOnce();
    } catch (e) {
      if (!isCorruption(e)) throw e;
      const aside = moveAside(this.location);
      rmSync(this.checkMarker, { force: true });
      this.report(`history store ${this.location} is damaged (${(e as Error).message}); moved aside to ${aside}, starting a new one`);
      this.handle = this.openOnce();
    }
    this.dataVersion = this.handle.prepare('PRAGMA data_version');
    return this.handle;
  }

  private query(db: SqliteConnection, q: Query): Row[] {
    let st = this.stmts.get(q.sql);
    if (!st) {
      st = db.prepare(q.sql);
      this.stmts.set(q.sql, st);
    }
    return st.all(...boundAs(q.params));
  }

  private execIn<T>(db: SqliteConnection, op: () => Op<T>): T {
    const gen = op();
    let step = gen.next();
    while (!step.done) step = gen.next(this.query(db, step.value));
    return step.value;
  }

  runSync<T>(op: () => Op<T>, write: boolean): T {
    const db = this.db();
    try {
      return transaction(db, write, () => this.execIn(db, op));
    } catch (e) {
      if (isCorruption(e)) {
        try {
          writeFileSync(this.checkMarker, '', { mode: 0o600 });
        } catch {
          // the next open then finds the damage by itself, or not at all
        }
      }
      throw e;
    }
  }

  async run<T>(op: () => Op<T>, write: boolean): Promise<T> {
    return this.runSync(op, write);
  }

  stamp(): number {
    this.db();
    return Number(Object.values(this.dataVersion!.all()[0]!)[0]);
  }

  fileBytes(): number {
    let n = 0;
    for (const suffix of ['', '-wal']) {
      try {
        n += statSync(this.location + suffix).size;
      } catch {
        // absent
      }
    }
    return n;
  }

  async close(): Promise<void> {
    const db = this.handle;
    this.handle = undefined;
    this.dataVersion = undefined;
    this.stmts.clear();
    db?.close();
  }
}

/**
 * Runs `body` in one transaction: IMMEDIATE for a write (the write lock is taken at BEGIN, so a
 * busy store is waited for there, never at COMMIT), DEFERRED for a read (one snapshot).
 */
function transaction<T>(db: SqliteConnection, write: boolean, body: () => T): T {
  db.exec(write ? 'BEGIN IMMEDIATE' : 'BEGIN DEFERRED');
  try {
    const result = body();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // SQLite has already rolled back (some errors end the transaction themselves)
    }
    throw e;
  }
}
