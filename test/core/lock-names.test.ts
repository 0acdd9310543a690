import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLockName, lockNameFor, MAX_PLAIN_LOCK_NAME, pathHasLockName } from '../../src/core/lock-names.js';

test('lock names: plain beside a short name, hashed for a path below or a long name', () => {
  assert.equal(lockNameFor('a.txt'), '.a.txt.hashline.lock');
  assert.equal(lockNameFor('.env'), '..env.hashline.lock');
  assert.match(lockNameFor('sub/a.txt'), /^\.[0-9a-f]{24}\.hashline\.lock$/);
  assert.notEqual(lockNameFor('sub/a.txt'), lockNameFor('sub/b.txt'));
  const long = 'x'.repeat(MAX_PLAIN_LOCK_NAME + 1);
  assert.match(lockNameFor(long), /^\.[0-9a-f]{24}\.hashline\.lock$/);
  assert.equal(lockNameFor('Ω'.repeat(MAX_PLAIN_LOCK_NAME / 2)), `.${'Ω'.repeat(MAX_PLAIN_LOCK_NAME / 2)}.hashline.lock`);
  assert.match(lockNameFor('Ω'.repeat(MAX_PLAIN_LOCK_NAME / 2 + 1)), /^\.[0-9a-f]{24}\./, 'the limit counts bytes');
});

test('every name of the lock family is recognised, other names are not', () => {
  const lock = lockNameFor('a.txt');
  for (const n of [lock, `${lock}.1f2e3d4c0.new`, `${lock}.takeover.0123456789ab`, `${lock}.takeover.0123456789ab.ba9876543210`, lockNameFor('d/e')]) {
    assert.ok(isLockName(n), n);
  }
  for (const n of ['a.txt', '.hashline.lock', 'x.hashline.lock', '.a.txt.hashline.locked', '.a.txt.hashline-tmp-1', 'hashline.lock']) {
    assert.ok(!isLockName(n), n);
  }
  assert.ok(pathHasLockName(`/r/src/${lock}`));
  assert.ok(pathHasLockName(`/r/${lock}/x`));
  assert.ok(!pathHasLockName('/r/src/a.txt'));
  assert.ok(!pathHasLockName('/r/x.hashline.lock'));
});
