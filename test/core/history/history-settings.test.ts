// `--history` over `[history]`: the flag wins, a URL means PostgreSQL, 0.1's `persist` still reads,
// every default is filled in, and bad values are coded errors.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configSchema } from '../../../src/core/config/config-schema.js';
import { DEFAULT_HISTORY, parseHistoryFlag, resolveHistory } from '../../../src/core/history/history-settings.js';

test('defaults: durable SQLite, 90 days, 1000 per file, 1 GiB, 16 MiB per version', () => {
  assert.deepEqual(resolveHistory(undefined, undefined), {
    store: 'sqlite', maxAgeDays: 90, maxVersionsPerFile: 1000, maxBytes: 1024 ** 3, maxVersionBytes: 16 * 1024 * 1024,
  });
  assert.deepEqual(resolveHistory(undefined, {}), resolveHistory(undefined, undefined));
  assert.equal(DEFAULT_HISTORY.store, 'sqlite');
});

test('the flag wins over the file; a postgres URL implies postgres', () => {
  assert.equal(resolveHistory('memory', { store: 'sqlite' }).store, 'memory');
  assert.deepEqual(parseHistoryFlag('postgresql://u@h/db'), { store: 'postgres', url: 'postgresql://u@h/db' });
  const pg = resolveHistory(undefined, { url: 'postgres://u@h/db', max_versions: 5 });
  assert.deepEqual([pg.store, pg.url, pg.maxVersionsPerFile], ['postgres', 'postgres://u@h/db', 5]);
  assert.equal(resolveHistory('off', { url: 'postgres://u@h/db' }).url, undefined);
});

test("0.1's persist: false means memory, true means sqlite, unless store says otherwise", () => {
  assert.equal(resolveHistory(undefined, { persist: false }).store, 'memory');
  assert.equal(resolveHistory(undefined, { persist: true }).store, 'sqlite');
  assert.equal(resolveHistory(undefined, { persist: false, store: 'sqlite' }).store, 'sqlite');
});

test('bad values are coded errors', () => {
  assert.throws(() => parseHistoryFlag('mysql://x'), { code: 'invalid_arguments' });
  assert.throws(() => resolveHistory(undefined, { store: 'postgres' }), { code: 'config_invalid' });
  assert.equal(configSchema().safeParse({ history: { url: 'http://x' } }).success, false);
  assert.equal(configSchema().safeParse({ history: { max_bytes: -1 } }).success, false);
  assert.equal(configSchema().safeParse({ history: { bogus: 1 } }).success, false);
  assert.equal(configSchema().safeParse({ history: { store: 'sqlite', max_age_days: 0.5, max_version_bytes: 1024 } }).success, true);
});
