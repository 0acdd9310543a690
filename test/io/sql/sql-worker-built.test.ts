// SQL validation from what the package ships, not from the TypeScript sources: the compiled
// validator in dist/ starts its compiled worker, and the bundled CLI's worker entry
// (bin/hashline-sql-worker.mjs) loads libpg-query from node_modules. Both are made by
// `npm run build` (npm install runs it through prepare).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { SqlValidator as SqlValidatorType } from '../../../src/io/sql/sql-worker.js';
import type { SqlWorkerReply } from '../../../src/io/sql/sql-worker-thread.js';
import { REPO } from '../../helpers/mcp-client.js';

const PG18 = { dialect: 'postgresql', version: '18' };
const built = (rel: string): string => {
  const abs = path.join(REPO, rel);
  assert.ok(existsSync(abs), `${rel} is missing: run \`npm run build\``);
  return abs;
};

test('the compiled validator in dist/ validates through its compiled worker', async () => {
  const mod = (await import(pathToFileURL(built('dist/io/sql/sql-worker.js')).href)) as { SqlValidator: typeof SqlValidatorType };
  const v = new mod.SqlValidator();
  try {
    assert.deepEqual(await v.validate('UPDATE t SET a = a + 1 RETURNING old.a, new.a;', PG18), { valid: true, diagnostics: [] });
    assert.deepEqual(await v.validate('SELECT 1;\n  SELEC 2;', PG18), { valid: false, diagnostics: [{ message: 'syntax error at or near "SELEC"', line: 2, column: 3 }] });
    assert.equal(v.load().started, 1);
  } finally {
    await v.close();
  }
});

test("the bundled CLI's SQL worker parses with libpg-query from node_modules", async () => {
  const worker = new Worker(built('bin/hashline-sql-worker.mjs'), { workerData: {}, stdout: true, stderr: true });
  const replies: SqlWorkerReply[] = [];
  const ask = (id: number, text: string) =>
    new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (r: SqlWorkerReply) => {
        worker.off('error', reject);
        replies.push(r);
        resolve();
      });
      worker.postMessage({ id, text });
    });
  try {
    await ask(1, 'CREATE TABLE t (a int, b int GENERATED ALWAYS AS (a * 2) VIRTUAL);');
    await ask(2, 'SELECT (1');
  } finally {
    await worker.terminate();
  }
  assert.deepEqual(replies, [
    { id: 1, ok: true, valid: true, diagnostics: [] },
    { id: 2, ok: true, valid: false, diagnostics: [{ message: 'syntax error at end of input', line: 1, column: 10 }] },
  ]);
});

test('the bundled CLI starts its SQL worker from the shipped entry, never from a source path', () => {
  const dir = path.dirname(built('bin/hashline.mjs'));
  const chunks = readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'hashline-sql-worker.mjs');
  const texts = chunks.map((f) => readFileSync(path.join(dir, f), 'utf8'));
  assert.equal(texts.filter((t) => t.includes('"./hashline-sql-worker.mjs"')).length, 1, 'one chunk names the worker entry');
  assert.deepEqual(chunks.filter((_, i) => texts[i]!.includes('sql-worker-thread')), [], 'no chunk looks for the unbundled worker');
  assert.deepEqual(chunks.filter((_, i) => texts[i]!.includes('libpg-query.wasm')), [], 'libpg-query stays external');
});
