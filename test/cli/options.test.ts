import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { unsafeDefaultRoot, unsafeRoot } from '../../src/cli/options.js';

test('unsafeRoot: /, the home directory, a folder holding it, and links to them are refused; others are not', () => {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hashline-opts-')));
  try {
    const home = path.join(base, 'users', 'me');
    mkdirSync(path.join(home, 'project'), { recursive: true });
    symlinkSync(home, path.join(base, 'home-link'));
    symlinkSync('/', path.join(base, 'slash-link'));
    assert.match(unsafeRoot('/', home) ?? '', /is `\/`, the whole file system/);
    assert.match(unsafeRoot(path.join(base, 'slash-link'), home) ?? '', /the whole file system/);
    assert.match(unsafeRoot(home, home) ?? '', /is the home directory/);
    assert.match(unsafeRoot(path.join(base, 'home-link'), home) ?? '', /is the home directory/);
    assert.match(unsafeRoot(path.join(base, 'users'), home) ?? '', /holds the home directory/);
    assert.match(unsafeRoot(base, home) ?? '', /holds the home directory/);
    assert.equal(unsafeRoot(path.join(home, 'project'), home), null);
    assert.equal(unsafeRoot(path.join(base, 'users-other'), home), null);
    assert.equal(unsafeRoot(base, ''), null);
    assert.match(unsafeDefaultRoot(path.join(base, 'users'), home) ?? '', /^the working directory holds the home directory/);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
