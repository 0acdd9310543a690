// The writes of a group committed together (a group of an archive's members, a chunk of a
// structural rewrite: history-commits.ts) in a few multi-row statements instead of several each:
// the same rows as the same writes of history-sql.ts one after the other (recordVersion,
// anchorVersion, addSeen). What each write would read (is its text held by its path, is it among
// the versions the tools see, which sequence number it takes) is read once for the group and kept
// up to date as the group's writes go (group-windows.ts); then the group's blobs, heads, paths and
// log rows go in one multi-row INSERT per table, the root's counter in one UPDATE, and the lines
// marked seen in one read and one upsert.

import { decodeSeen, encodeSeen } from '../../core/history/seen-ranges.js';
import { GroupWindows } from './group-windows.js';
import { addSeen, anchorVersion, recordVersion, type Op, type Query, type RecordFields, type Row } from './history-sql.js';

/** A version made the newest of its path (anchorVersion). */
export interface AnchorFields {
  readonly path: string;
  readonly sha256: string;
}

/** Lines of a version shown (addSeen). */
export interface SeenFields {
  readonly path: string;
  readonly sha256: string;
  readonly lines: readonly number[];
}

/** A write that may be committed with its neighbours. */
export type GroupWrite = { readonly record: RecordFields } | { readonly anchor: AnchorFields } | { readonly seen: SeenFields };

/** The most rows one statement takes (a power of two: a group's statements take a few shapes, each prepared once). */
const MAX_ROWS = 128;

/** Fewer writes (a tool call's before and after) are made one by one: the group's statements would not be fewer. */
const FEW = 8;

const shapes = new Map<string, string>();

/** `head VALUES (?, ...), ... tail` for `n` rows of `width` values, built once per shape. */
function rowsSql(head: string, width: number, n: number, tail: string): string {
  const key = `${n}\0${head}\0${tail}`;
  let sql = shapes.get(key);
  if (sql === undefined) {
    const one = `(${new Array<string>(width).fill('?').join(', ')})`;
    sql = `${head} VALUES ${new Array<string>(n).fill(one).join(', ')}${tail}`;
    shapes.set(key, sql);
  }
  return sql;
}

/** Inserts `rows` in statements of up to MAX_ROWS rows, in order. */
function* insertRows(head: string, width: number, rows: readonly unknown[][], tail = ''): Op<void> {
  let i = 0;
  while (i < rows.length) {
    let n = MAX_ROWS;
    while (n > rows.length - i) n >>= 1;
    const params: unknown[] = [];
    for (let j = i; j < i + n; j++) params.push(...rows[j]!);
    yield { sql: rowsSql(head, width, n, tail), params } satisfies Query;
    i += n;
  }
}

const BLOBS = 'INSERT INTO blobs (sha256, kind, size, data)';
const HEADS = 'INSERT INTO heads (root_id, path, sha256, tag, seq, seen)';
const PATHS = 'INSERT INTO paths (root_id, path, seq)';
const LOG = 'INSERT INTO versions (root_id, path, sha256, tag, size, kind, op, tool, client, client_name, batch, time, detail)';
const SEQ_ONLY = ' ON CONFLICT (root_id, path, sha256) DO UPDATE SET seq = excluded.seq';
const SEEN_ONLY = ' ON CONFLICT (root_id, path, sha256) DO UPDATE SET seen = excluded.seen';

/**
 * The rows `select` (a SELECT ending in `path IN`) gives for `paths`, asked in parts of up to
 * MAX_ROWS paths; `forUpdate`: locked until the commit (PostgreSQL).
 */
function* rowsOf(rootId: number, paths: readonly string[], select: string, forUpdate = false): Op<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < paths.length; i += MAX_ROWS) {
    const part = paths.slice(i, i + MAX_ROWS);
    let n = MAX_ROWS;
    while (n > part.length) n >>= 1;
    // a part of another size is padded with its first path (a few statement shapes, see MAX_ROWS)
    const size = n === part.length ? n : n * 2;
    const params = [rootId, ...part, ...new Array<string>(size - part.length).fill(part[0]!)];
    out.push(...(yield { sql: `${select} (${new Array<string>(size).fill('?').join(', ')})`, params, ...(forUpdate ? { forUpdate } : {}) }));
  }
  return out;
}

/** The store's `n` most recently used paths, newest first (the window's paths). */
export function* recentPaths(rootId: number, n: number): Op<string[]> {
  const rows = yield { sql: 'SELECT path FROM paths WHERE root_id = ? ORDER BY seq DESC LIMIT ?', params: [rootId, n] };
  return rows.map((r) => String(r.path));
}

/** Every head of `paths`, each path's newest first. */
function* headsOf(rootId: number, paths: readonly string[]): Op<Map<string, string[]>> {
  const rows = yield* rowsOf(rootId, paths, 'SELECT path, sha256, seq FROM heads WHERE root_id = ? AND path IN');
  rows.sort((a, b) => Number(b.seq) - Number(a.seq));
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const p = String(r.path);
    let hs = out.get(p);
    if (hs === undefined) out.set(p, (hs = []));
    hs.push(String(r.sha256));
  }
  return out;
}

interface HeadRow {
  path: string;
  sha256: string;
  tag: string;
  seq: number;
}

/** The rows the group's records and anchors leave, found by following them through the group's windows (see the header). */
function* recordAndAnchor(rootId: number, ws: ReadonlyArray<Exclude<GroupWrite, { seen: SeenFields }>>): Op<void> {
  const records = ws.flatMap((w) => ('record' in w ? [w.record] : []));
  const blobs = new Map<string, RecordFields>();
  for (const r of records) if (!blobs.has(r.sha256)) blobs.set(r.sha256, r);
  yield* insertRows(BLOBS, 4, [...blobs.values()].map((r) => [r.sha256, r.kind, r.data.length, r.data]), ' ON CONFLICT (sha256) DO NOTHING');
  // the root's counter, locked until the commit (PostgreSQL), then what the writes would read
  const root = yield { sql: 'SELECT seq FROM roots WHERE id = ?', params: [rootId], forUpdate: true };
  const start = Number(root[0]!.seq);
  const topSize = Math.max(1, ...records.map((r) => r.limits.maxPaths));
  const paths = [...new Set(ws.flatMap((w) => ('record' in w ? (w.record.tag === null ? [] : [w.record.path]) : [w.anchor.path])))];
  const g = new GroupWindows(yield* recentPaths(rootId, topSize), paths.length > 0 ? yield* headsOf(rootId, paths) : new Map(), topSize, start);
  const heads = new Map<string, HeadRow>();
  const pathSeq = new Map<string, number>();
  const head = (path: string, sha256: string, tag: string, seq: number) => {
    const key = `${path}\0${sha256}`;
    const h = heads.get(key);
    if (h === undefined) heads.set(key, { path, sha256, tag, seq });
    else h.seq = seq; // a row already there keeps its tag (the upsert sets the seq alone)
    pathSeq.delete(path);
    pathSeq.set(path, seq);
  };
  const log: unknown[][] = [];
  for (const w of ws) {
    if ('anchor' in w) {
      const { path, sha256 } = w.anchor;
      if (g.known(path, sha256)) head(path, sha256, '', g.bump(path, sha256));
      continue;
    }
    const r = w.record;
    let added = false;
    if (r.tag !== null) {
      if (!g.inWindow(r.path, r.sha256, r.limits)) {
        head(r.path, r.sha256, r.tag, g.bump(r.path, r.sha256));
        added = true;
      } else if (r.touch === true && g.listed(r.path)) {
        const seq = g.bump(r.path);
        pathSeq.delete(r.path);
        pathSeq.set(r.path, seq);
      }
    }
    if (added || r.op !== 'seen' || r.tag === null) {
      const o = r.origin;
      log.push([rootId, r.path, r.sha256, r.tag, r.data.length, r.kind, r.op, o?.tool ?? null, o?.client ?? null, o?.clientName ?? null, o?.batch ?? null, r.time, null]);
    }
  }
  const taken = g.taken(start);
  if (taken > 0) yield { sql: 'UPDATE roots SET seq = ? WHERE id = ?', params: [start + taken, rootId] };
  yield* insertRows(HEADS, 6, [...heads.values()].map((h) => [rootId, h.path, h.sha256, h.tag, h.seq, '']), SEQ_ONLY);
  yield* insertRows(PATHS, 3, [...pathSeq].map(([p, seq]) => [rootId, p, seq]), ' ON CONFLICT (root_id, path) DO UPDATE SET seq = excluded.seq');
  yield* insertRows(LOG, 13, log);
}

/** addSeen of each mark, in order: one read of the heads marked (locked until the commit) and one upsert of those whose lines grew. */
function* markSeen(rootId: number, marks: readonly SeenFields[]): Op<void> {
  const rows = yield* rowsOf(rootId, [...new Set(marks.map((m) => m.path))], 'SELECT path, sha256, tag, seq, seen FROM heads WHERE root_id = ? AND path IN', true);
  const byKey = new Map<string, Row>();
  for (const r of rows) byKey.set(`${String(r.path)}\0${String(r.sha256)}`, r);
  const changed = new Map<string, Row>();
  for (const m of marks) {
    const key = `${m.path}\0${m.sha256}`;
    const r = byKey.get(key);
    if (r === undefined) continue;
    const before = String(r.seen ?? '');
    const merged = encodeSeen(decodeSeen(before, new Set(m.lines)));
    if (merged === before) continue;
    r.seen = merged;
    changed.set(key, r);
  }
  yield* insertRows(HEADS, 6, [...changed.values()].map((r) => [rootId, r.path, r.sha256, r.tag, r.seq, r.seen]), SEEN_ONLY);
}

/**
 * The writes of `ws`, in a few multi-row statements (see the header). The marks of seen lines of a
 * part of the group are made after its records and anchors; a part ends before a record of a path
 * marked earlier in it, so a mark never finds a head that a later write adds.
 */
export function* groupWrites(rootId: number, ws: readonly GroupWrite[]): Op<void> {
  if (ws.length < FEW) {
    for (const w of ws) {
      if ('record' in w) yield* recordVersion(rootId, w.record);
      else if ('anchor' in w) yield* anchorVersion(rootId, w.anchor.path, w.anchor.sha256);
      else yield* addSeen(rootId, w.seen.path, w.seen.sha256, w.seen.lines);
    }
    return;
  }
  let versions: Array<Exclude<GroupWrite, { seen: SeenFields }>> = [];
  let marks: SeenFields[] = [];
  const marked = new Set<string>();
  for (let i = 0; i <= ws.length; i++) {
    const w = ws[i];
    if (w === undefined || ('record' in w && marked.has(w.record.path))) {
      if (versions.length > 0) yield* recordAndAnchor(rootId, versions);
      if (marks.length > 0) yield* markSeen(rootId, marks);
      versions = [];
      marks = [];
      marked.clear();
    }
    if (w === undefined) break;
    if ('seen' in w) {
      marks.push(w.seen);
      marked.add(w.seen.path);
    } else versions.push(w);
  }
}

/** recordVersion of each record, in order, in a few multi-row statements. */
export function recordVersions(rootId: number, rs: readonly RecordFields[]): Op<void> {
  return groupWrites(rootId, rs.map((record) => ({ record })));
}
