// The SQLite store through better-sqlite3 (a native module, synchronous): one file per root, mode
// 0600, in WAL mode with synchronous=NORMAL (a commit survives a crash of the process; a power loss
// can take the last commits back; `--durability fsync` asks for FULL) and a busy timeout, so several processes (an MCP server per client
// plus `hashline serve`) share it. Opened on first use, so a server answers its first messages
// without paying for it. A file that is not a database, or fails its check, is moved aside (never
// emptied in place) and reported; a fresh store is started beside it.

import { closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { checkSchema, schemaStatements, type Op, type Query, type Row } from './history-sql.js';
import type { Runner } from './runner.js';
import { findSqliteAddon, loadAddon } from './sqlite-addon.js';

const nodeRequire = createRequire(import.meta.url);

/** The parts of better-sqlite3 used here. */
interface Statement {
  readonly reader: boolean;
  all(...params: unknown[]): Row[];
  run(...params: unknown[]): unknown;
  pluck(): Statement;
  get(...params: unknown[]): unknown;
}
interface Database {
  prepare(sql: string): Statement;
  exec(sql: string): void;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...a: never[]) => unknown>(fn: F): F & { immediate: F; deferred: F };
  close(): void;
}
type DatabaseConstructor = new (file: string, options: { nativeBinding?: unknown; timeout?: number }) => Database;

export interface SqliteModule {
  readonly Database: DatabaseConstructor;
  readonly addon: unknown;
}

/**
 * Loads better-sqlite3's native addon now (about a millisecond, found and loaded by sqlite-addon.ts;
 * its JavaScript loads on first use). HASHLINE_SQLITE_BINDING names another compiled addon (a
 * path); a path that does not load makes the module unavailable, which is how the fallback to
 * memory is tested.
 */
export function loadSqliteModule(env: NodeJS.ProcessEnv = process.env): SqliteModule | { error: string } {
  try {
    const addon = loadAddon(env.HASHLINE_SQLITE_BINDING || findSqliteAddon());
    let ctor: DatabaseConstructor | undefined;
    return {
      addon,
      get Database() {
        return (ctor ??= nodeRequire('better-sqlite3') as DatabaseConstructor);
      },
    };
  } catch (e) {
    return { error: (e as Error).message.split('\n')[0]! };
  }
}

const CORRUPT_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

function isCorruption(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && (CORRUPT_CODES.has(code) || code.startsWith('SQLITE_CORRUPT'));
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

export class SqliteRunner implements Runner {
  readonly dialect = 'sqlite' as const;
  private handle: Database | undefined;
  private readonly stmts = new Map<string, Statement>();
  private dataVersion: Statement | undefined;
  private tx: (((o: () => Op<unknown>) => unknown) & { immediate: (o: () => Op<unknown>) => unknown; deferred: (o: () => Op<unknown>) => unknown }) | undefined;

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

  private openOnce(): Database {
    prepareFile(this.location);
    const db = new this.module.Database(this.location, { nativeBinding: this.module.addon, timeout: 10_000 });
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(this.fullSync ? 'synchronous = FULL' : 'synchronous = NORMAL');
      if (existsSync(this.checkMarker)) {
        const result = db.pragma('quick_check', { simple: true });
        if (result !== 'ok') throw Object.assign(new Error(`integrity check: ${String(result)}`), { code: 'SQLITE_CORRUPT' });
        rmSync(this.checkMarker, { force: true });
      }
      const setup = db.transaction(() => {
        for (const s of schemaStatements('sqlite')) db.exec(s);
        this.execIn(db, () => checkSchema());
      });
      setup.immediate();
      return db;
    } catch (e) {
      db.close();
      this.stmts.clear();
      throw e;
    }
  }

  private db(): Database {
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
    this.dataVersion = this.handle.prepare('PRAGMA data_version').pluck();
    return this.handle;
  }

  private query(db: Database, q: Query): Row[] {
    let st = this.stmts.get(q.sql);
    if (!st) {
      st = db.prepare(q.sql);
      this.stmts.set(q.sql, st);
    }
    const params = q.params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
    if (st.reader) return st.all(...params);
    st.run(...params);
    return [];
  }

  private execIn<T>(db: Database, op: () => Op<T>): T {
    const gen = op();
    let step = gen.next();
    while (!step.done) step = gen.next(this.query(db, step.value));
    return step.value;
  }

  runSync<T>(op: () => Op<T>, write: boolean): T {
    const db = this.db();
    try {
      this.tx ??= db.transaction((o: () => Op<unknown>) => this.execIn(db, o));
      return (write ? this.tx.immediate(op) : this.tx.deferred(op)) as T;
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
    return Number(this.dataVersion!.get());
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
    this.tx = undefined;
    this.stmts.clear();
    db?.close();
  }
}
