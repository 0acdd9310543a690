// The records of many files committed together (a group of an archive's members, history-commits.ts)
// in a few multi-row statements instead of six statements each: the same rows as recordVersion
// (history-sql.ts) one record after the other. One statement stores the group's distinct blobs,
// one asks which of the group's texts its paths hold already, and each text new to its path takes
// its sequence number from one update of the root's counter; its head, path and log rows then go
// in one multi-row INSERT per table. A record whose text its path may hold (in the store, or
// earlier in the same group) is recorded by recordVersion itself, in its place in the order.

import { recordVersion, type Op, type Query, type RecordFields } from './history-sql.js';

/** The most rows one statement takes (a power of two: a group's statements take a few shapes, each prepared once). */
const MAX_ROWS = 128;

/** Fewer records (a tool call's before and after) are recorded one by one: the group's statements would not be fewer. */
const FEW = 8;

const shapes = new Map<string, string>();

/** `head VALUES (?, ...), ... tail` for `n` rows of `width` values, built once per shape. */
function rowsSql(head: string, width: number, n: number, tail: string): string {
  const key = `${n}\0${head}`;
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

/**
 * The rows `select` (a SELECT ending in `path IN`) gives for `paths`, asked in parts of up to
 * MAX_ROWS paths, each turned into a key by `key`.
 */
function* keysOf(rootId: number, paths: readonly string[], select: string, key: (row: Record<string, unknown>) => string): Op<Set<string>> {
  const held = new Set<string>();
  for (let i = 0; i < paths.length; i += MAX_ROWS) {
    const part = paths.slice(i, i + MAX_ROWS);
    let n = MAX_ROWS;
    while (n > part.length) n >>= 1;
    // a part of another size is padded with its first path (a few statement shapes, see MAX_ROWS)
    const size = n === part.length ? n : n * 2;
    const params = [rootId, ...part, ...new Array<string>(size - part.length).fill(part[0]!)];
    const rows = yield { sql: `${select} (${new Array<string>(size).fill('?').join(', ')})`, params };
    for (const r of rows) held.add(key(r));
  }
  return held;
}

/** The keys of the texts the store holds for `paths` (`path NUL sha256`). */
function heldTexts(rootId: number, paths: readonly string[]): Op<Set<string>> {
  return keysOf(rootId, paths, 'SELECT path, sha256 FROM heads WHERE root_id = ? AND path IN', (r) => `${String(r.path)}\0${String(r.sha256)}`);
}

/** Records that each add a head (a text new to its path) or only a log row (content without a tag), in order. */
function* recordNew(rootId: number, rs: readonly RecordFields[]): Op<void> {
  const texts = rs.filter((r) => r.tag !== null);
  if (texts.length > 0) {
    const rows = yield { sql: 'UPDATE roots SET seq = seq + ? WHERE id = ? RETURNING seq', params: [texts.length, rootId] };
    const first = Number(rows[0]!.seq) - texts.length + 1;
    yield* insertRows(HEADS, 6, texts.map((r, i) => [rootId, r.path, r.sha256, r.tag, first + i, '']), ' ON CONFLICT (root_id, path, sha256) DO UPDATE SET seq = excluded.seq');
    yield* insertRows(PATHS, 3, texts.map((r, i) => [rootId, r.path, first + i]), ' ON CONFLICT (root_id, path) DO UPDATE SET seq = excluded.seq');
  }
  yield* insertRows(LOG, 13, rs.map((r) => {
    const o = r.origin;
    return [rootId, r.path, r.sha256, r.tag, r.data.length, r.kind, r.op, o?.tool ?? null, o?.client ?? null, o?.clientName ?? null, o?.batch ?? null, r.time, null];
  }));
}

/** recordVersion of each record, in order, in a few multi-row statements (see the header). */
export function* recordVersions(rootId: number, rs: readonly RecordFields[]): Op<void> {
  if (rs.length < FEW) {
    for (const r of rs) yield* recordVersion(rootId, r);
    return;
  }
  const blobs = new Map<string, RecordFields>();
  for (const r of rs) if (!blobs.has(r.sha256)) blobs.set(r.sha256, r);
  yield* insertRows(BLOBS, 4, [...blobs.values()].map((r) => [r.sha256, r.kind, r.data.length, r.data]), ' ON CONFLICT (sha256) DO NOTHING');
  const held = yield* heldTexts(rootId, [...new Set(rs.filter((r) => r.tag !== null).map((r) => r.path))]);
  const fresh: RecordFields[] = [];
  const inGroup = new Set<string>();
  for (const r of rs) {
    if (r.tag === null || (!held.has(`${r.path}\0${r.sha256}`) && !inGroup.has(r.path))) {
      fresh.push(r);
    } else {
      // the path may hold this text: recordVersion reads its window, after what came before it
      yield* recordNew(rootId, fresh.splice(0));
      yield* recordVersion(rootId, r);
    }
    if (r.tag !== null) inGroup.add(r.path);
  }
  yield* recordNew(rootId, fresh);
}

/** Which of `paths` the store has a window row for (the others have no versions to load). */
export function heldPaths(rootId: number, paths: readonly string[]): Op<Set<string>> {
  return keysOf(rootId, paths, 'SELECT path FROM paths WHERE root_id = ? AND path IN', (r) => String(r.path));
}
