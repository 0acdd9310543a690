// The examples of the README's library section run as written (they are also type-checked by
// `npm run typecheck`), importing `hashline` and `hashline/ai` as a user would.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/mcp-client.js';

function run(example: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO, 'examples', example)], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('examples/engine.ts: read, edit, stale edit refused, rollback', () => {
  const out = run('engine.ts');
  assert.match(out, /¶greet\.ts#([0-9A-F]{4})\n1\| export function greet\(\) \{/);
  assert.match(out, /\+  return "hello";/);
  assert.match(out, /refused: edit_rejected/);
  const first = /¶greet\.ts#([0-9A-F]{4})/.exec(out)![1];
  assert.match(out, new RegExp(`restored ¶greet\\.ts#${first}`));
});

test('examples/http-client.ts: write and read a window through the client; a path outside is refused', () => {
  assert.equal(run('http-client.ts'), 'two\nthree\n\nrefused: path_outside_root\n');
});

test('examples/ai-sdk.ts: the AI SDK tools carry the tool schemas and run on the engine', () => {
  const out = run('ai-sdk.ts');
  assert.match(out, /^fs_read, fs_write, fs_ast_edit, fs_edit, fs_rollback/);
  assert.match(out, /ok: true/);
  assert.match(out, /¶a\.py#[0-9A-F]{4}\\n1\| def alpha\(\):/);
});

test('examples/errors.ts: codes come from the one table', () => {
  assert.equal(run('errors.ts'), 'edit_rejected: the file changed since it was read and no safe merge exists\n');
});
