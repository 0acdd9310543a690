// What the console and `hashline history` read from a durable store, and its retention: the same
// SQL for SQLite and PostgreSQL (see history-sql.ts for how operations run).

import type { FeedQuery, LogEntry } from '../../core/history/history-store.js';
import { scopeExact, scopePrefix } from '../../core/history/path-scope.js';
import type { Op, Query, Row } from './history-sql.js';

const q = (sql: string, ...params: unknown[]): Query => ({ sql, params });

const COLUMNS = 'v.id, r.name AS root, v.path, v.op, v.sha256, v.tag, v.size, v.kind, v.tool, v.client, v.client_name, v.batch, v.time, v.detail';

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export function entryOf(r: Row): LogEntry {
  return {
    id: Number(r.id),
    root: String(r.root),
    path: String(r.path),
    op: String(r.op),
    sha256: str(r.sha256),
    tag: str(r.tag),
    size: num(r.size),
    kind: (str(r.kind) as LogEntry['kind']) ?? null,
    tool: str(r.tool),
    client: str(r.client),
    clientName: str(r.client_name),
    batch: str(r.batch),
    time: Number(r.time),
    detail: str(r.detail),
  };
}

export const MAX_PAGE = 1000;

function pageSize(limit: number | undefined): number {
  return Math.max(1, Math.min(MAX_PAGE, Math.floor(limit ?? 100)));
}

/** The log, newest first (or oldest first after a cursor), filtered by root, client, tool and path. */
export function* feed(rootId: number, f: FeedQuery): Op<LogEntry[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.allRoots !== true) {
    where.push('v.root_id = ?');
    params.push(rootId);
  }
  if (f.after !== undefined) {
    where.push('v.id > ?');
    params.push(f.after);
  }
  if (f.before !== undefined) {
    where.push('v.id < ?');
    params.push(f.before);
  }
  if (f.client !== undefined) {
    where.push('v.client = ?');
    params.push(f.client);
  }
  if (f.tool !== undefined) {
    where.push('v.tool = ?');
    params.push(f.tool);
  }
  if (f.path !== undefined) {
    // substr, not LIKE: SQLite's LIKE ignores ASCII case and both treat % and _ as wildcards
    const prefix = scopePrefix(f.path);
    const exact = scopeExact(f.path);
    if (exact === undefined) {
      where.push('substr(v.path, 1, ?) = ?');
      params.push(prefix.length, prefix);
    } else {
      where.push('(v.path = ? OR substr(v.path, 1, ?) = ?)');
      params.push(exact, prefix.length, prefix);
    }
  }
  const order = f.after !== undefined ? 'ASC' : 'DESC';
  const sql = `SELECT ${COLUMNS} FROM versions v JOIN roots r ON r.id = v.root_id${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY v.id ${order} LIMIT ?`;
  const rows = yield q(sql, ...params, pageSize(f.limit));
  return rows.map(entryOf);
}

export function* timeline(rootId: number, path: string, before: number | undefined, limit: number | undefined): Op<LogEntry[]> {
  const rows = yield q(
    `SELECT ${COLUMNS} FROM versions v JOIN roots r ON r.id = v.root_id WHERE v.root_id = ? AND v.path = ? AND v.id < ? ORDER BY v.id DESC LIMIT ?`,
    rootId, path, before ?? Number.MAX_SAFE_INTEGER, pageSize(limit),
  );
  return rows.map(entryOf);
}

/** The path `path` was renamed from, when that rename is the newest entry logged at `path`. */
export function* renamedFrom(rootId: number, path: string): Op<string | undefined> {
  const rows = yield q('SELECT op, detail FROM versions WHERE root_id = ? AND path = ? ORDER BY id DESC LIMIT 1', rootId, path);
  const r = rows[0];
  return r !== undefined && r.op === 'rename' && r.detail !== null && r.detail !== undefined ? String(r.detail) : undefined;
}

export function* contentOf(id: number): Op<{ entry: LogEntry; bytes: Uint8Array } | undefined> {
  const rows = yield q(`SELECT ${COLUMNS}, b.data FROM versions v JOIN roots r ON r.id = v.root_id JOIN blobs b ON b.sha256 = v.sha256 WHERE v.id = ?`, id);
  const r = rows[0];
  if (r === undefined) return undefined;
  return { entry: entryOf(r), bytes: r.data as Uint8Array };
}

export function* newestId(): Op<number> {
  const rows = yield q('SELECT max(id) AS m FROM versions');
  return Number(rows[0]?.m ?? 0);
}

export function* stats(rootId: number): Op<{ entries: number; blobs: number; blobBytes: number }> {
  const e = yield q('SELECT count(*) AS n FROM versions WHERE root_id = ?', rootId);
  const b = yield q('SELECT count(*) AS n, sum(size) AS s FROM blobs');
  return { entries: Number(e[0]!.n), blobs: Number(b[0]!.n), blobBytes: Number(b[0]!.s ?? 0) };
}

export interface Retention {
  /** Log entries older than this many milliseconds go (0: no age limit). */
  readonly maxAgeMs: number;
  /** Per file, entries beyond the newest this many go (0: no limit). */
  readonly maxVersionsPerFile: number;
  /** Oldest entries go until the stored content of this root fits (0: no limit). */
  readonly maxBytes: number;
}

/** Removes what retention says is too old or too much, then heads and content nothing refers to. */
export function* applyRetention(rootId: number, r: Retention, now: number): Op<number> {
  let removed = 0;
  const count = (rows: Row[]) => rows.length;
  if (r.maxAgeMs > 0) removed += count(yield q('DELETE FROM versions WHERE root_id = ? AND time < ? RETURNING id', rootId, now - r.maxAgeMs));
  if (r.maxVersionsPerFile > 0) {
    removed += count(
      yield q(
        `DELETE FROM versions WHERE id IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY path ORDER BY id DESC) AS rn
          FROM versions WHERE root_id = ?) t WHERE rn > ?) RETURNING id`,
        rootId, r.maxVersionsPerFile,
      ),
    );
  }
  if (r.maxBytes > 0) {
    for (let round = 0; round < 10_000; round++) {
      const size = yield q(
        'SELECT sum(b.size) AS s FROM blobs b WHERE b.sha256 IN (SELECT v.sha256 FROM versions v WHERE v.root_id = ? AND v.sha256 IS NOT NULL)',
        rootId,
      );
      const excess = Number(size[0]?.s ?? 0) - r.maxBytes;
      if (excess <= 0) break;
      // the oldest entries whose sizes add up to the excess (shared content frees less: go round again)
      const oldest = yield q('SELECT id, size FROM versions WHERE root_id = ? ORDER BY id LIMIT 1000', rootId);
      if (oldest.length === 0) break;
      let freed = 0;
      let cutoff = Number(oldest[0]!.id);
      for (const row of oldest) {
        cutoff = Number(row.id);
        freed += Number(row.size ?? 0);
        if (freed >= excess) break;
      }
      const gone = yield q('DELETE FROM versions WHERE root_id = ? AND id <= ? RETURNING id', rootId, cutoff);
      removed += gone.length;
      yield q('DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.sha256 = blobs.sha256) AND NOT EXISTS (SELECT 1 FROM heads h WHERE h.sha256 = blobs.sha256 AND h.root_id <> ?)', rootId);
    }
  }
  if (removed > 0) {
    yield q(
      'DELETE FROM heads WHERE root_id = ? AND NOT EXISTS (SELECT 1 FROM versions v WHERE v.root_id = heads.root_id AND v.sha256 = heads.sha256)',
      rootId,
    );
    yield q('DELETE FROM paths WHERE root_id = ? AND NOT EXISTS (SELECT 1 FROM heads h WHERE h.root_id = paths.root_id AND h.path = paths.path)', rootId);
    yield q('DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM versions v WHERE v.sha256 = blobs.sha256) AND NOT EXISTS (SELECT 1 FROM heads h WHERE h.sha256 = blobs.sha256)');
  }
  return removed;
}

export interface StoreSummary {
  /** The roots the store keeps, by name (a SQLite store: the project's real path). */
  readonly roots: Array<{ id: number; name: string }>;
  readonly versions: number;
  /** The time of the newest log entry (ms since the epoch); null when the log is empty. */
  readonly newest: number | null;
}

/** What a store holds: its roots, its log's size and newest change (`hashline history --stores`). */
export function* storeSummary(): Op<StoreSummary> {
  const roots = yield q('SELECT id, name FROM roots ORDER BY id');
  const log = yield q('SELECT count(*) AS n, max(time) AS t FROM versions');
  return {
    roots: roots.map((r) => ({ id: Number(r.id), name: String(r.name) })),
    versions: Number(log[0]?.n ?? 0),
    newest: num(log[0]?.t),
  };
}
