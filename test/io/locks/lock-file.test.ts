// readLockText (a holder's check of its lock before removing it) against readLock's text.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { readLock, readLockText } from '../../../src/io/locks/lock-file.js';
import { tempDir } from '../../helpers/locks.js';

const d = tempDir('hl-lock-text-');
after(() => rmSync(d, { recursive: true, force: true }));

test('readLockText gives the text readLock gives: a lock, a missing one, one too large, a directory', () => {
  const lock = path.join(d, '.a.hashline.lock');
  writeFileSync(lock, `${process.pid}\nstart=1\nboot=b\ntarget=a\n`);
  assert.equal(readLockText(lock), readLock(lock)!.text);
  assert.equal(readLockText(lock), `${process.pid}\nstart=1\nboot=b\ntarget=a\n`);
  assert.equal(readLockText(path.join(d, '.none.hashline.lock')), null);
  assert.equal(readLock(path.join(d, '.none.hashline.lock')), null);
  const big = path.join(d, '.big.hashline.lock');
  writeFileSync(big, 'x'.repeat(4097));
  assert.equal(readLockText(big), '');
  assert.equal(readLock(big)!.text, '');
  const exact = path.join(d, '.exact.hashline.lock');
  writeFileSync(exact, 'y'.repeat(4096));
  assert.equal(readLockText(exact), 'y'.repeat(4096));
  assert.equal(readLock(exact)!.text, 'y'.repeat(4096));
  const dir = path.join(d, '.dir.hashline.lock');
  mkdirSync(dir);
  assert.notEqual(readLockText(dir), readLock(lock)!.text);
});

test('readLockText of a FIFO neither blocks nor gives a text', () => {
  const fifo = path.join(d, '.fifo.hashline.lock');
  execFileSync('mkfifo', [fifo]);
  assert.ok(!readLockText(fifo));
  assert.equal(readLock(fifo)!.text, '');
});
