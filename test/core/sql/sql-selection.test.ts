import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HashlineError } from '../../../src/core/errors/errors.js';
import { normalizeSqlTarget, resolveSqlSelection, sqlOutcome, SqlSelectionSchema, type SqlDefaults, type SqlPlan, type SqlSelection } from '../../../src/core/sql/sql-selection.js';

const none: SqlDefaults = { policy: undefined, dialect: undefined, version: undefined, variant: undefined };
const defaults = (d: Partial<SqlDefaults>): SqlDefaults => ({ ...none, ...d });

test('the parser runs only when a file selects SQL or the default is required', () => {
  const cases: Array<[string, SqlSelection | undefined, SqlDefaults, boolean, string]> = [
    ['nothing selected, nothing configured', undefined, none, false, 'skip'],
    ['a configured dialect alone', undefined, defaults({ dialect: 'postgresql', version: '18' }), false, 'skip'],
    ['an advisory default alone', undefined, defaults({ policy: 'advisory', dialect: 'postgresql' }), false, 'skip'],
    ['a required default', undefined, defaults({ policy: 'required' }), true, 'required'],
    ['a per-file selection without a policy', {}, none, true, 'advisory'],
    ['a per-file dialect over a required default', { dialect: 'pg' }, defaults({ policy: 'required' }), true, 'required'],
    ['a per-file advisory over a required default', { policy: 'advisory' }, defaults({ policy: 'required' }), true, 'advisory'],
    ['a per-file skip over a required default', { policy: 'skip' }, defaults({ policy: 'required' }), false, 'skip'],
    ['a per-file required', { policy: 'required' }, none, true, 'required'],
  ];
  for (const [name, perFile, d, run, policy] of cases) {
    const plan = resolveSqlSelection(perFile, d);
    assert.equal(plan.run, run, name);
    assert.equal(plan.policy, policy, name);
    assert.equal(plan.note, undefined, name);
  }
});

test('PostgreSQL 18 is named in any of its spellings; the per-file choice wins over the default', () => {
  for (const dialect of ['postgresql', 'postgres', 'pg', 'PostgreSQL', ' PG ']) {
    for (const version of ['18', '18.0', '18.1']) {
      const plan = resolveSqlSelection({ dialect, version }, none);
      assert.deepEqual(plan, { run: true, policy: 'advisory', dialect: 'postgresql', version: '18', variant: undefined }, `${dialect} ${version}`);
    }
  }
  assert.deepEqual(resolveSqlSelection({ variant: 'core' }, none), { run: true, policy: 'advisory', dialect: 'postgresql', version: '18', variant: 'core' });
  const plan = resolveSqlSelection({ dialect: 'pg', policy: 'required' }, defaults({ dialect: 'mysql', version: '18', policy: 'advisory' }));
  assert.equal(plan.dialect, 'postgresql');
  assert.equal(plan.policy, 'required');
  assert.equal(resolveSqlSelection({}, defaults({ version: '17' })).version, '17', 'the default version is used when the file names none');
});

test('an unsupported target is a note under advisory and a failure under required', () => {
  const targets: SqlSelection[] = [{ dialect: 'mysql' }, { dialect: 'sqlite', version: '3' }, { version: '17' }, { version: '18beta' }, { variant: 'plpgsql' }, { dialect: 'pg', variant: 'timescale' }];
  for (const t of targets) {
    const advisory = resolveSqlSelection({ ...t, policy: 'advisory' }, none);
    assert.equal(advisory.run, false, JSON.stringify(t));
    assert.match(advisory.note ?? '', /supports PostgreSQL 18 core SQL only; .+ is not validated/, JSON.stringify(t));
    assert.throws(
      () => resolveSqlSelection(t, defaults({ policy: 'required' })),
      (e: unknown) => e instanceof HashlineError && e.code === 'sql_validation_unavailable' && !e.retryable && e.details?.reason === 'unsupported',
      JSON.stringify(t),
    );
    assert.deepEqual(resolveSqlSelection({ ...t, policy: 'skip' }, defaults({ policy: 'required' })).run, false, 'skip needs no supported target');
  }
  const plan = resolveSqlSelection({ dialect: 'MySQL', version: '8.4' }, none);
  assert.equal(plan.note, 'SQL validation supports PostgreSQL 18 core SQL only; MySQL 8.4 is not validated');
});

test('the per-file schema is strict and bounded', () => {
  assert.ok(SqlSelectionSchema.safeParse({ policy: 'required', dialect: 'pg', version: '18', variant: 'core' }).success);
  assert.ok(!SqlSelectionSchema.safeParse({ policy: 'always' }).success);
  assert.ok(!SqlSelectionSchema.safeParse({ dialect: 'pg', extra: true }).success);
  assert.ok(!SqlSelectionSchema.safeParse({ dialect: '' }).success);
  assert.ok(!SqlSelectionSchema.safeParse({ version: 18 }).success);
  assert.deepEqual(normalizeSqlTarget({}), { dialect: 'postgresql', version: '18', variant: undefined, supported: true });
});

const plan = (p: Partial<SqlPlan>): SqlPlan => ({ run: true, policy: 'advisory', dialect: 'postgresql', version: '18', variant: undefined, ...p });
const invalid = { valid: false, diagnostics: [{ message: 'syntax error at or near "SELEC"', line: 2, column: 3 }] };

test('advisory never blocks: invalid and unavailable results are reported', () => {
  assert.deepEqual(sqlOutcome(plan({}), { valid: true, diagnostics: [] }, 'a.sql'), { policy: 'advisory', dialect: 'postgresql', version: '18', status: 'valid', diagnostics: [] });
  const bad = sqlOutcome(plan({}), invalid, 'a.sql');
  assert.equal(bad.status, 'invalid');
  assert.deepEqual(bad.diagnostics, invalid.diagnostics);
  const busy = sqlOutcome(plan({}), new HashlineError('sql_validation_unavailable', 'SQL validation is busy', { details: { reason: 'queue_full' } }), 'a.sql');
  assert.equal(busy.status, 'unavailable');
  assert.match(busy.note ?? '', /advisory, not blocking\): SQL validation is busy/);
  const unsupported = resolveSqlSelection({ dialect: 'mysql' }, none);
  assert.equal(sqlOutcome(unsupported, undefined, 'a.sql').status, 'unsupported');
  assert.equal(sqlOutcome(resolveSqlSelection(undefined, none), undefined, 'a.sql').status, 'skipped');
});

test('required allows only a valid result', () => {
  assert.equal(sqlOutcome(plan({ policy: 'required' }), { valid: true, diagnostics: [] }, 'a.sql').status, 'valid');
  assert.throws(
    () => sqlOutcome(plan({ policy: 'required' }), invalid, 'db/a.sql'),
    (e: unknown) =>
      e instanceof HashlineError &&
      e.code === 'sql_validation_failed' &&
      e.message === 'required SQL validation failed for db/a.sql: syntax error at or near "SELEC" at line 2, column 3' &&
      (e.details?.diagnostics as unknown[]).length === 1 &&
      e.details?.filePath === 'db/a.sql',
  );
  const deadline = new HashlineError('sql_validation_unavailable', 'did not finish', { details: { reason: 'deadline' } });
  assert.throws(
    () => sqlOutcome(plan({ policy: 'required' }), deadline, 'a.sql'),
    (e: unknown) => e instanceof HashlineError && e.code === 'sql_validation_unavailable' && e.retryable && e.details?.reason === 'deadline',
  );
  const tooLarge = new HashlineError('sql_validation_unavailable', 'too large', { retryable: false, details: { reason: 'source_too_large' } });
  assert.throws(() => sqlOutcome(plan({ policy: 'required' }), tooLarge, 'a.sql'), (e: unknown) => e instanceof HashlineError && !e.retryable);
});

test('a cancellation is passed on under every policy', () => {
  for (const policy of ['advisory', 'required'] as const) {
    assert.throws(() => sqlOutcome(plan({ policy }), new HashlineError('aborted', 'cancelled'), 'a.sql'), (e: unknown) => e instanceof HashlineError && e.code === 'aborted');
  }
});
