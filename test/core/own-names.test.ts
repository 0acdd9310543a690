import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lockNameFor } from '../../src/core/lock-names.js';
import { backupName, isOwnName, isStagingName, pathHasOwnName, tempName } from '../../src/core/own-names.js';

test('staging names: a temporary or backup file beside the file it stages', () => {
  assert.equal(tempName('.env', '1.2.ab.0'), '..env.hashline-tmp-1.2.ab.0');
  assert.equal(backupName('.env', '0123456789ab'), '..env.hashline-bak-0123456789ab');
  for (const n of [tempName('a.txt', 'x'), backupName('Ω.txt', 'ff'), '.a.hashline-tmp-', '.a.b.hashline-bak-1']) assert.ok(isStagingName(n), n);
  for (const n of ['a.txt', 'a.hashline-tmp-1', '.hashline-tmp-1', '.a.hashline-tmpx', '.a.hashline-old-1', lockNameFor('a')]) {
    assert.ok(!isStagingName(n), n);
  }
});

test('own names: staging, backup and lock names, in any component', () => {
  for (const n of [tempName('a', '1'), backupName('a', '1'), lockNameFor('a'), `${lockNameFor('a')}.takeover.1`]) assert.ok(isOwnName(n), n);
  assert.ok(!isOwnName('a.hashline.toml'));
  assert.ok(pathHasOwnName(`/r/${backupName('.env', '00')}`));
  assert.ok(pathHasOwnName(`/r/${tempName('d', '1')}/x.txt`));
  assert.ok(!pathHasOwnName('/r/hashline.toml'));
  assert.ok(!pathHasOwnName('/r/.hashline/x'));
});
