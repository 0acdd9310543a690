// The SQL validator against the real libpg-query worker: PostgreSQL 18 syntax, positions, the
// seed's limits, the end-to-end deadline on an injected clock, and the retirement of a hung worker.

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { HashlineError } from '../../../src/core/errors/errors.js';
import { SQL_LIMITS, SqlValidator, type SqlResult } from '../../../src/io/sql/sql-worker.js';
import { ManualClock } from '../../helpers/manual-clock.js';

const PG18 = { dialect: 'postgresql', version: '18' };

async function refused(p: Promise<unknown>, code: string, reason?: string): Promise<HashlineError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HashlineError, String(e));
    assert.equal(e.code, code, e.message);
    if (reason !== undefined) assert.equal(e.details?.reason, reason, e.message);
    return e;
  }
  assert.fail(`expected ${code}`);
}

const open: SqlValidator[] = [];
function validator(options: ConstructorParameters<typeof SqlValidator>[0] = {}): { v: SqlValidator; clock: ManualClock } {
  const clock = new ManualClock();
  const v = new SqlValidator({ clock, ...options });
  open.push(v);
  return { v, clock };
}
after(async () => {
  await Promise.all(open.map((v) => v.close()));
});

// one validator for the tests that do not retire a worker: they all run on its one worker
const shared = validator();

/** `bytes` bytes of valid SQL, mostly a comment (cheap to parse, exactly sized). */
const sized = (bytes: number): string => {
  const tail = '\nSELECT 1;';
  return `--${'x'.repeat(bytes - 2 - tail.length)}${tail}`;
};

test('the limits are the seed\'s', () => {
  assert.deepEqual({ ...SQL_LIMITS }, { sourceBytes: 512 * 1024, outstandingBytes: 2 * 1024 * 1024, requests: 8, deadlineMs: 5000 });
});

test('PostgreSQL 18 syntax is valid; errors carry line and column; the worker starts on first use', async () => {
  const { v } = shared;
  assert.deepEqual([v.load().started, v.load().worker], [0, 'none'], 'nothing starts before a request');
  const valid = [
    'UPDATE accounts SET balance = balance - 10 WHERE id = 1\nRETURNING old.balance AS before, new.balance AS after, old.*, new.*;',
    'CREATE TABLE items (\n  price numeric,\n  qty int,\n  total numeric GENERATED ALWAYS AS (price * qty) VIRTUAL\n);',
    'BEGIN;\nALTER TABLE t ADD COLUMN c int;\n-- a comment\nCOMMIT;\n',
    '',
    '  \n-- only a comment\n',
    // a DO body is a string to the core parser: PL/pgSQL inside it is not validated
    'DO $$ BEGIN this is not pl pgsql; END $$;',
  ];
  for (const sql of valid) assert.deepEqual(await v.validate(sql, PG18), { valid: true, diagnostics: [] }, sql);
  const cases: Array<[string, string, number, number]> = [
    ['SELECT 1;\nSELEC 2;', 'syntax error at or near "SELEC"', 2, 1],
    ["-- café ☕\nSELECT 'é😀' AS x,\n       FROM t;", 'syntax error at or near "FROM"', 3, 8],
    ['CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a) VIRTUL);', 'syntax error at or near "VIRTUL"', 1, 54],
    ['SELECT (1', 'syntax error at end of input', 1, 10],
    ["SELECT 'open", 'unterminated quoted string at or near "\'open"', 1, 8],
    ['SELECT 1;\nSELECT 2\0; DROP TABLE t;', 'the SQL text contains a NUL character', 2, 9],
  ];
  for (const [sql, message, line, column] of cases) {
    assert.deepEqual(await v.validate(sql, PG18), { valid: false, diagnostics: [{ message, line, column }] }, sql);
  }
  assert.deepEqual([v.load().started, v.load().worker, v.load().requests, v.load().bytes], [1, 'running', 0, 0]);
});

test('a source over 512 KiB is refused before any work; one of exactly 512 KiB is parsed', async () => {
  const { v } = shared;
  const over = await refused(v.validate(sized(SQL_LIMITS.sourceBytes + 1), PG18), 'sql_validation_unavailable', 'source_too_large');
  assert.equal(over.retryable, false);
  assert.match(over.message, /524289 bytes; validation accepts at most 524288 bytes per source/);
  // bytes are UTF-8 bytes: fewer characters than the limit can still be too many bytes
  await refused(v.validate('é'.repeat(SQL_LIMITS.sourceBytes / 2 + 1), PG18), 'sql_validation_unavailable', 'source_too_large');
  assert.equal(v.load().requests, 0);
  assert.deepEqual(await v.validate(sized(SQL_LIMITS.sourceBytes), PG18), { valid: true, diagnostics: [] });
});

test('eight requests in total: a ninth is refused at once, and capacity comes back', async () => {
  const { v } = shared;
  const texts = Array.from({ length: 8 }, (_, i) => `SELECT ${i};`);
  const eight = texts.map((t) => v.validate(t, PG18));
  const bytes = texts.join('').length;
  assert.deepEqual({ ...v.load(), started: 0, retired: 0 }, { requests: 8, bytes, waiting: 7, active: true, worker: 'running', started: 0, retired: 0 });
  const ninth = await refused(v.validate('SELECT 9;', PG18), 'sql_validation_unavailable', 'queue_full');
  assert.equal(ninth.retryable, true);
  assert.equal(v.load().requests, 8, 'the refusal reserved nothing');
  for (const r of await Promise.all(eight)) assert.equal(r.valid, true);
  assert.equal(v.load().requests, 0);
  assert.equal((await v.validate('SELECT 10;', PG18)).valid, true);
});

test('2 MiB outstanding: a request past it is refused at once', async () => {
  const { v } = shared;
  const four = Array.from({ length: 4 }, () => v.validate(sized(SQL_LIMITS.sourceBytes), PG18));
  assert.equal(v.load().bytes, SQL_LIMITS.outstandingBytes);
  const past = await refused(v.validate('SELECT 1;', PG18), 'sql_validation_unavailable', 'outstanding_bytes');
  assert.equal(past.retryable, true);
  for (const r of await Promise.all(four)) assert.equal(r.valid, true);
  assert.equal((await v.validate('SELECT 1;', PG18)).valid, true);
});

test('several callers at once each get the answer for their own text, from one worker', async () => {
  const { v } = shared;
  const texts = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? `SELECT ${i};` : `${'SELECT 1;\n'.repeat(i)}SELEC ${i};`));
  const results: SqlResult[] = await Promise.all(texts.map((t) => v.validate(t, PG18)));
  results.forEach((r, i) => {
    if (i % 2 === 0) assert.deepEqual(r, { valid: true, diagnostics: [] }, texts[i]);
    else assert.deepEqual(r.diagnostics.map((d) => [d.line, d.column]), [[i + 1, 1]], texts[i]);
  });
  assert.equal(v.load().started, 1, 'one worker served every test so far');
});

test('a cancelled caller is answered at once; a request on the worker keeps its capacity until the worker answers', async () => {
  const { v } = shared;
  const done = new AbortController();
  done.abort();
  await refused(v.validate('SELECT 1;', PG18, { signal: done.signal }), 'aborted');
  assert.equal(v.load().requests, 0);
  const first = new AbortController();
  const second = new AbortController();
  const active = v.validate('SELECT 1;', PG18, { signal: first.signal });
  const waiting = v.validate('SELECT 2;', PG18, { signal: second.signal });
  const behind = v.validate('SELECT 3;', PG18);
  second.abort();
  await refused(waiting, 'aborted');
  assert.equal(v.load().requests, 2, 'a waiting request is released when cancelled');
  first.abort();
  await refused(active, 'aborted');
  assert.equal(v.load().requests, 2, 'the active one stays reserved while the worker parses it');
  assert.equal((await behind).valid, true);
  assert.equal(v.load().requests, 0);
});

test('a target other than PostgreSQL 18 core is refused by the validator', async () => {
  const e = await refused(shared.v.validate('SELECT 1', { dialect: 'mysql', version: '8' }), 'sql_validation_unavailable', 'unsupported');
  assert.equal(e.retryable, false);
  await refused(shared.v.validate('SELECT 1', { dialect: 'pg', version: '18', variant: 'plpgsql' }), 'sql_validation_unavailable', 'unsupported');
});

test('the deadline covers queueing, the lazy start and the parse (injected clock)', async () => {
  const { v, clock } = validator();
  // missed during the worker's start: the worker is retired
  const starting = v.validate('SELECT 1;', PG18);
  clock.advance(SQL_LIMITS.deadlineMs);
  const missed = await refused(starting, 'sql_validation_unavailable', 'deadline');
  assert.equal(missed.retryable, true);
  await v.retirement();
  assert.deepEqual([v.load().started, v.load().retired, v.load().requests], [1, 1, 0]);
  // one unit of time short of the deadline: the answer comes
  const inTime = v.validate('SELECT 1;', PG18);
  clock.advance(SQL_LIMITS.deadlineMs - 1);
  assert.equal((await inTime).valid, true);
  // an active and a waiting request miss it together: the waiting one is released at once,
  // the active one's capacity stays reserved until its worker is confirmed gone
  const active = v.validate('SELECT 2;', PG18);
  const waiting = v.validate('SELECT 3;', PG18);
  clock.advance(SQL_LIMITS.deadlineMs);
  await refused(active, 'sql_validation_unavailable', 'deadline');
  await refused(waiting, 'sql_validation_unavailable', 'deadline');
  await v.retirement();
  assert.deepEqual([v.load().requests, v.load().worker, v.load().retired], [0, 'none', 2]);
  assert.equal((await v.validate('SELECT 4;', PG18)).valid, true, 'a new worker serves the next request');
  assert.equal(v.load().started, 3);
});

test('a hung worker is retired; its capacity stays reserved until its exit is confirmed, then comes back', async () => {
  const { v, clock } = validator({ hangWhen: 'hang_here' });
  const hung = v.validate('SELECT hang_here();', PG18);
  const early = v.validate('SELECT 0;', PG18);
  clock.advance(1000);
  const later = Array.from({ length: 6 }, (_, i) => v.validate(`SELECT ${i + 1};`, PG18));
  await refused(v.validate('SELECT 9;', PG18), 'sql_validation_unavailable', 'queue_full');
  clock.advance(SQL_LIMITS.deadlineMs - 1000);
  await refused(hung, 'sql_validation_unavailable', 'deadline');
  await refused(early, 'sql_validation_unavailable', 'deadline');
  // the hung parse's slot is held by the retiring worker: one more fits, not two
  assert.equal(v.load().worker, 'retiring');
  assert.equal(v.load().requests, 7);
  const oneMore = v.validate('SELECT 7;', PG18);
  await refused(v.validate('SELECT 8;', PG18), 'sql_validation_unavailable', 'queue_full');
  await v.retirement();
  assert.deepEqual([v.load().requests, v.load().retired], [7, 1], 'the held slot came back when the worker exited');
  for (const r of await Promise.all([...later, oneMore])) assert.equal(r.valid, true);
  assert.deepEqual([v.load().requests, v.load().bytes, v.load().started], [0, 0, 2]);
  const full = await Promise.all(Array.from({ length: 8 }, (_, i) => v.validate(`SELECT ${i};`, PG18)));
  assert.equal(full.length, 8, 'all eight slots are usable again');
});

/** A validator made while `env` is set (the hooks a spawned server reads from its environment). */
function withEnv(env: Record<string, string>, make: () => SqlValidator): SqlValidator {
  Object.assign(process.env, env);
  try {
    const v = make();
    open.push(v);
    return v;
  } finally {
    for (const k of Object.keys(env)) delete process.env[k];
  }
}

test('on the real clock a request that misses its deadline retires the worker (deadline from the environment)', async () => {
  const v = withEnv({ HASHLINE_TEST_SQL_DEADLINE_MS: '200', HASHLINE_TEST_SQL_HANG: 'hang_here' }, () => new SqlValidator());
  const e = await refused(v.validate('SELECT hang_here();', PG18), 'sql_validation_unavailable', 'deadline');
  assert.match(e.message, /within its 200 ms deadline/);
  await v.retirement();
  assert.deepEqual([v.load().requests, v.load().started, v.load().retired, v.load().worker], [0, 1, 1, 'none']);
});

test('the hang hook from the environment makes the worker spin on its marker only', async () => {
  const clock = new ManualClock();
  const v = withEnv({ HASHLINE_TEST_SQL_HANG: 'hang_here' }, () => new SqlValidator({ clock }));
  assert.equal((await v.validate('SELECT 1;', PG18)).valid, true);
  const hung = refused(v.validate('SELECT hang_here();', PG18), 'sql_validation_unavailable', 'deadline');
  // a warm worker answers a one-line statement in about a millisecond; this one never does
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual([v.load().active, v.load().requests], [true, 1]);
  clock.advance(SQL_LIMITS.deadlineMs);
  await hung;
  await v.retirement();
  assert.equal(v.load().retired, 1);
});

test('closing answers what waits and refuses what comes after', async () => {
  const { v } = validator();
  const active = refused(v.validate('SELECT 1;', PG18), 'sql_validation_unavailable', 'closed');
  const waiting = refused(v.validate('SELECT 2;', PG18), 'sql_validation_unavailable', 'closed');
  await v.close();
  await Promise.all([active, waiting]);
  await refused(v.validate('SELECT 3;', PG18), 'sql_validation_unavailable', 'closed');
  assert.deepEqual([v.load().requests, v.load().worker], [0, 'none']);
});
