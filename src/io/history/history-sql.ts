// The durable history's schema and its writes, written once for both databases. Each operation is a
// generator that yields queries (`?` placeholders) and receives their rows: the SQLite runner runs
// it synchronously inside a transaction, the PostgreSQL runner asynchronously (placeholders become
// `$n`, and a query marked `forUpdate` locks its rows there). So both stores run the same SQL.
//
// Tables: `roots` (one row per guarded root: its name and an ordering counter), `blobs` (content
// by SHA-256, stored once), `versions` (the log: one row per change or first sighting of a file,
// with tool, client, batch and time), `heads` (per path, the distinct versions the tools see, in
// order, with the lines shown of each), `paths` (when each path last changed, for the window of the
// most recent paths).

import { decodeSeen, encodeSeen } from '../../core/history/seen-ranges.js';
import type { HistoryOrigin } from '../../core/history/history-store.js';

export type Dialect = 'sqlite' | 'postgres';
export interface Query {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** PostgreSQL: lock the selected rows until the transaction ends (SQLite's writers are serial). */
  readonly forUpdate?: boolean;
}
export type Row = Record<string, unknown>;
export type Op<T> = Generator<Query, T, Row[]>;

export const SCHEMA_VERSION = 1;

const q = (sql: string, ...params: unknown[]): Query => ({ sql, params });

/** The schema's statements in a dialect (types differ; every query is shared). */
export function schemaStatements(dialect: Dialect): string[] {
  const id = dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGSERIAL PRIMARY KEY';
  const blob = dialect === 'sqlite' ? 'BLOB' : 'BYTEA';
  return [
    'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
    `CREATE TABLE IF NOT EXISTS roots (id ${id}, name TEXT NOT NULL UNIQUE, seq BIGINT NOT NULL DEFAULT 0)`,
    `CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, kind TEXT NOT NULL, size BIGINT NOT NULL, data ${blob} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS versions (id ${id}, root_id BIGINT NOT NULL, path TEXT NOT NULL, sha256 TEXT, tag TEXT,
      size BIGINT, kind TEXT, op TEXT NOT NULL, tool TEXT, client TEXT, client_name TEXT, batch TEXT, time BIGINT NOT NULL, detail TEXT)`,
    'CREATE INDEX IF NOT EXISTS versions_path ON versions (root_id, path, id)',
    // the feed: a root's newest entries without sorting the whole log
    'CREATE INDEX IF NOT EXISTS versions_root ON versions (root_id, id)',
    'CREATE INDEX IF NOT EXISTS versions_time ON versions (time)',
    'CREATE INDEX IF NOT EXISTS versions_sha ON versions (sha256)',
    `CREATE TABLE IF NOT EXISTS heads (root_id BIGINT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL, tag TEXT NOT NULL,
      seq BIGINT NOT NULL, seen TEXT NOT NULL DEFAULT '', PRIMARY KEY (root_id, path, sha256))`,
    'CREATE INDEX IF NOT EXISTS heads_order ON heads (root_id, path, seq)',
    'CREATE TABLE IF NOT EXISTS paths (root_id BIGINT NOT NULL, path TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (root_id, path))',
    'CREATE INDEX IF NOT EXISTS paths_order ON paths (root_id, seq)',
  ];
}

/** Checks the schema version (a newer store is refused rather than misread); records it when new. */
export function* checkSchema(): Op<void> {
  yield q("INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO NOTHING", String(SCHEMA_VERSION));
  const rows = yield q("SELECT value FROM meta WHERE key = 'schema'");
  const version = Number(rows[0]?.value);
  if (version !== SCHEMA_VERSION) throw new Error(`history store schema ${String(rows[0]?.value)} is not ${SCHEMA_VERSION} (made by another version of hashline)`);
}

/** The id of the root with this name, made when new; `created` tells whether it was. */
export function* ensureRoot(name: string): Op<{ id: number; created: boolean }> {
  const made = yield q('INSERT INTO roots (name, seq) VALUES (?, 0) ON CONFLICT (name) DO NOTHING RETURNING id', name);
  if (made.length > 0) return { id: Number(made[0]!.id), created: true };
  const rows = yield q('SELECT id FROM roots WHERE name = ?', name);
  return { id: Number(rows[0]!.id), created: false };
}

export interface WindowLimits {
  readonly maxPaths: number;
  readonly maxVersionsPerPath: number;
}

export interface HeadRow {
  readonly sha256: string;
  readonly tag: string;
  readonly seen: string;
}

/** The versions of `path` the tools see, oldest first: none when the path is not among the most recently used. */
export function* loadWindow(rootId: number, path: string, limits: WindowLimits): Op<HeadRow[]> {
  return (yield* loadRankedWindow(rootId, path, limits)).rows;
}

/** loadWindow, and how many paths were used more recently than this one (`limits.maxPaths` when out of the window). */
export function* loadRankedWindow(rootId: number, path: string, limits: WindowLimits): Op<{ rows: HeadRow[]; rank: number }> {
  const own = yield q('SELECT seq FROM paths WHERE root_id = ? AND path = ?', rootId, path);
  if (own.length === 0) return { rows: [], rank: limits.maxPaths };
  const newer = yield q('SELECT count(*) AS n FROM (SELECT 1 FROM paths WHERE root_id = ? AND seq > ? LIMIT ?) t', rootId, own[0]!.seq, limits.maxPaths);
  const rank = Number(newer[0]!.n);
  if (rank >= limits.maxPaths) return { rows: [], rank };
  const rows = yield q('SELECT sha256, tag, seen FROM heads WHERE root_id = ? AND path = ? ORDER BY seq DESC LIMIT ?', rootId, path, limits.maxVersionsPerPath);
  return { rows: rows.reverse().map((r) => ({ sha256: String(r.sha256), tag: String(r.tag), seen: String(r.seen ?? '') })), rank };
}

/** Stored bytes by SHA-256 (missing ones are left out: removed by retention meanwhile). */
export function* loadBlobs(shas: readonly string[]): Op<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < shas.length; i += 100) {
    const part = shas.slice(i, i + 100);
    const rows = yield q(`SELECT sha256, data FROM blobs WHERE sha256 IN (${part.map(() => '?').join(', ')})`, ...part);
    for (const r of rows) out.set(String(r.sha256), r.data as Uint8Array);
  }
  return out;
}

function* nextSeq(rootId: number): Op<number> {
  const rows = yield q('UPDATE roots SET seq = seq + 1 WHERE id = ? RETURNING seq', rootId);
  return Number(rows[0]!.seq);
}

function* touchPath(rootId: number, path: string, seq: number): Op<void> {
  yield q('INSERT INTO paths (root_id, path, seq) VALUES (?, ?, ?) ON CONFLICT (root_id, path) DO UPDATE SET seq = excluded.seq', rootId, path, seq);
}

export interface LogFields {
  readonly path: string;
  readonly op: string;
  readonly sha256: string | null;
  readonly tag: string | null;
  readonly size: number | null;
  readonly kind: 'text' | 'bytes' | null;
  readonly origin: HistoryOrigin | undefined;
  readonly time: number;
  readonly detail?: string | null;
}

function* logRow(rootId: number, f: LogFields): Op<void> {
  const o = f.origin;
  yield q(
    'INSERT INTO versions (root_id, path, sha256, tag, size, kind, op, tool, client, client_name, batch, time, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    rootId, f.path, f.sha256, f.tag, f.size, f.kind, f.op, o?.tool ?? null, o?.client ?? null, o?.clientName ?? null, o?.batch ?? null, f.time, f.detail ?? null,
  );
}

/** Makes `path` the most recently used (a version of it was recorded again: the seed's LRU over paths). */
export function* touchOp(rootId: number, path: string): Op<void> {
  const rows = yield q('SELECT seq FROM paths WHERE root_id = ? AND path = ?', rootId, path);
  if (rows.length === 0) return;
  yield* touchPath(rootId, path, yield* nextSeq(rootId));
}

export interface RecordFields {
  readonly path: string;
  readonly sha256: string;
  /** Null for content the tools cannot see as a version (binary, large). */
  readonly tag: string | null;
  readonly kind: 'text' | 'bytes';
  readonly data: Uint8Array;
  /** `seen` (found on disk), `made` (produced by a tool), `migrated`. */
  readonly op: string;
  readonly origin: HistoryOrigin | undefined;
  readonly time: number;
  readonly limits: WindowLimits;
  /** Make the path the most recently used even when the version is already in its window. */
  readonly touch?: boolean;
}

/**
 * Stores the content and logs it. A text version joins the path's window when it is not in it
 * (becoming the newest); one already there keeps its place and is logged only when a tool made it.
 */
export function* recordVersion(rootId: number, r: RecordFields): Op<{ added: boolean }> {
  yield q('INSERT INTO blobs (sha256, kind, size, data) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING', r.sha256, r.kind, r.data.length, r.data);
  let added = false;
  if (r.tag !== null) {
    // a text never kept for this path is not in its window: the window is read only when it might be
    const known = yield q('SELECT 1 AS k FROM heads WHERE root_id = ? AND path = ? AND sha256 = ?', rootId, r.path, r.sha256);
    const window = known.length === 0 ? [] : yield* loadWindow(rootId, r.path, r.limits);
    if (!window.some((h) => h.sha256 === r.sha256)) {
      const seq = yield* nextSeq(rootId);
      yield q(
        'INSERT INTO heads (root_id, path, sha256, tag, seq, seen) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (root_id, path, sha256) DO UPDATE SET seq = excluded.seq',
        rootId, r.path, r.sha256, r.tag, seq, '',
      );
      yield* touchPath(rootId, r.path, seq);
      added = true;
    } else if (r.touch === true) {
      yield* touchOp(rootId, r.path);
    }
  }
  if (added || r.op !== 'seen' || r.tag === null) {
    yield* logRow(rootId, { path: r.path, op: r.op, sha256: r.sha256, tag: r.tag, size: r.data.length, kind: r.kind, origin: r.origin, time: r.time });
  }
  return { added };
}

/** Adds shown lines to a version; returns the merged set's encoding ('' when the version is gone). */
export function* addSeen(rootId: number, path: string, sha256: string, lines: Iterable<number>): Op<string> {
  const rows = yield { ...q('SELECT seen FROM heads WHERE root_id = ? AND path = ? AND sha256 = ?', rootId, path, sha256), forUpdate: true };
  if (rows.length === 0) return '';
  const before = String(rows[0]!.seen ?? '');
  const merged = encodeSeen(decodeSeen(before, new Set(lines)));
  if (merged !== before) yield q('UPDATE heads SET seen = ? WHERE root_id = ? AND path = ? AND sha256 = ?', merged, rootId, path, sha256);
  return merged;
}

/** Makes a version the newest of its path (no log row: the change that caused it has its own). */
export function* anchorVersion(rootId: number, path: string, sha256: string): Op<void> {
  const rows = yield q('SELECT sha256 FROM heads WHERE root_id = ? AND path = ? AND sha256 = ?', rootId, path, sha256);
  if (rows.length === 0) return;
  const seq = yield* nextSeq(rootId);
  yield q('UPDATE heads SET seq = ? WHERE root_id = ? AND path = ? AND sha256 = ?', seq, rootId, path, sha256);
  yield* touchPath(rootId, path, seq);
}

/** Moves the window of `from` to `to` (replacing the window `to` had) and logs the rename at both. */
export function* renamePath(rootId: number, from: string, to: string, origin: HistoryOrigin | undefined, time: number): Op<void> {
  yield q('DELETE FROM heads WHERE root_id = ? AND path = ?', rootId, to);
  yield q('DELETE FROM paths WHERE root_id = ? AND path = ?', rootId, to);
  const moved = yield q('UPDATE heads SET path = ? WHERE root_id = ? AND path = ? RETURNING sha256, tag, seq', to, rootId, from);
  yield q('DELETE FROM paths WHERE root_id = ? AND path = ?', rootId, from);
  let head: Row | undefined;
  for (const r of moved) if (head === undefined || Number(r.seq) > Number(head.seq)) head = r;
  if (head !== undefined) yield* touchPath(rootId, to, yield* nextSeq(rootId));
  const sha = head === undefined ? null : String(head.sha256);
  const size = sha === null ? [] : yield q('SELECT size FROM blobs WHERE sha256 = ?', sha);
  yield* logRow(rootId, { path: from, op: 'rename', sha256: null, tag: null, size: null, kind: null, origin, time, detail: to });
  yield* logRow(rootId, {
    path: to, op: 'rename', sha256: sha, tag: head === undefined ? null : String(head.tag),
    size: size.length > 0 ? Number(size[0]!.size) : null, kind: sha === null ? null : 'text', origin, time, detail: from,
  });
}

/** Logs that a file was deleted. */
export function* logDeletion(rootId: number, path: string, origin: HistoryOrigin | undefined, time: number): Op<void> {
  yield* logRow(rootId, { path, op: 'delete', sha256: null, tag: null, size: null, kind: null, origin, time });
}
