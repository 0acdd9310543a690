// The feed's path filter: a folder without its trailing slash matches the folder's files and the
// path itself, never a sibling sharing its prefix; with the slash, only what lies under it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inScope, scopeExact, scopePrefix } from '../../../src/core/history/path-scope.js';

test('a path filter matches itself and what lies under it, not a sibling with the same prefix', () => {
  const cases: Array<[string, string, boolean]> = [
    ['/r/src/cli', '/r/src/cli/main.ts', true],
    ['/r/src/cli', '/r/src/cli/deep/x.ts', true],
    ['/r/src/cli', '/r/src/cli', true],
    ['/r/src/cli', '/r/src/cli2/other.ts', false],
    ['/r/src/cli', '/r/src/clix', false],
    ['/r/src/cli/', '/r/src/cli/main.ts', true],
    ['/r/src/cli/', '/r/src/cli', false],
    ['/r/src/cli/', '/r/src/cli2/other.ts', false],
    ['/r/a.ts', '/r/a.ts', true],
    ['/r/a.ts', '/r/a.ts.bak', false],
    ['/', '/anything/at/all', true],
  ];
  for (const [filter, p, want] of cases) assert.equal(inScope(filter, p), want, `${filter} vs ${p}`);
  assert.deepEqual([scopePrefix('/r/src'), scopeExact('/r/src')], ['/r/src/', '/r/src']);
  assert.deepEqual([scopePrefix('/r/src/'), scopeExact('/r/src/')], ['/r/src/', undefined]);
});
