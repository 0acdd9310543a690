// The examples of the README's library section run as written (they are also type-checked by
// `npm run typecheck`), importing `hashline` and `hashline/ai` as a user would.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { REPO } from '../helpers/mcp-client.js';

/** Each example runs once, all of them at the same time (separate processes, separate trees). */
const runs = new Map<string, Promise<{ status: number | null; stdout: string; stderr: string }>>();
for (const example of ['engine.ts', 'http-client.ts', 'ai-sdk.ts', 'errors.ts']) {
  runs.set(
    example,
    new Promise((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', path.join(REPO, 'examples', example)], { cwd: REPO, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    }),
  );
}

async function run(example: string): Promise<string> {
  const r = await runs.get(example)!;
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('examples/engine.ts: read, edit, stale edit refused, rollback', async () => {
  const out = await run('engine.ts');
  assert.match(out, /¶greet\.ts#([0-9A-F]{4})\n1\| export function greet\(\) \{/);
  assert.match(out, /\+  return "hello";/);
  assert.match(out, /refused: edit_rejected/);
  const first = /¶greet\.ts#([0-9A-F]{4})/.exec(out)![1];
  assert.match(out, new RegExp(`restored ¶greet\\.ts#${first}`));
});

test('examples/http-client.ts: write and read a window through the client; a path outside is refused', async () => {
  assert.equal(await run('http-client.ts'), 'two\nthree\n\nrefused: path_outside_root\n');
});

test('examples/ai-sdk.ts: the AI SDK tools carry the tool schemas and run on the engine', async () => {
  const out = await run('ai-sdk.ts');
  assert.match(out, /^fs_read, fs_write, fs_ast_edit, fs_edit, fs_rollback/);
  assert.match(out, /ok: true/);
  assert.match(out, /¶a\.py#[0-9A-F]{4}\\n1\| def alpha\(\):/);
});

test('examples/errors.ts: codes come from the one table', async () => {
  assert.equal(await run('errors.ts'), 'edit_rejected: the file changed since it was read and no safe merge exists\n');
});
