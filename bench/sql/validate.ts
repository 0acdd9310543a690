// How long SQL validation takes, as the package ships it (the compiled validator in dist/ and its
// compiled worker; run `npm run build` first): the first request of a process (the worker's lazy
// start, libpg-query's WASM load, the parse), a warm ~1 KiB migration, and a 512 KiB source (the
// per-source limit) on a worker that has not parsed anything that large before and then warm.
// The 5 s end-to-end deadline is in force, as in production. Unit tests count work, never time.
// Run: npm run bench:sql

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SqlValidator as SqlValidatorType } from '../../src/io/sql/sql-worker.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { SqlValidator } = (await import(pathToFileURL(path.join(repo, 'dist/io/sql/sql-worker.js')).href)) as { SqlValidator: typeof SqlValidatorType };
const PG18 = { dialect: 'postgresql', version: '18' };

const migration = [
  'CREATE TABLE orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, qty int NOT NULL, price numeric(12,2) NOT NULL,',
  '  total numeric GENERATED ALWAYS AS (qty * price) VIRTUAL, created_at timestamptz NOT NULL DEFAULT now());',
  'CREATE INDEX orders_created ON orders (created_at DESC);',
  "INSERT INTO orders (qty, price) VALUES (1, 9.99), (2, 19.50) ON CONFLICT DO NOTHING;",
  'UPDATE orders SET qty = qty + 1 WHERE id = 1 RETURNING old.qty AS before, new.qty AS after;',
  'WITH recent AS (SELECT * FROM orders WHERE created_at > now() - interval \'1 day\')',
  '  SELECT id, sum(total) OVER (ORDER BY created_at) FROM recent;',
  '',
].join('\n');
const big = migration.repeat(Math.floor((512 * 1024) / Buffer.byteLength(migration)));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
async function timed(v: SqlValidatorType, text: string): Promise<string> {
  const t0 = performance.now();
  try {
    const r = await v.validate(text, PG18);
    return `${(performance.now() - t0).toFixed(1)} ms (${r.valid ? 'valid' : 'invalid'})`;
  } catch (e) {
    return `${(performance.now() - t0).toFixed(1)} ms (${(e as { code?: string; details?: { reason?: string } }).details?.reason ?? String(e)})`;
  }
}

const v = new SqlValidator();
console.log(`first request of the process (lazy start + load + parse of ${Buffer.byteLength(migration)} B): ${await timed(v, migration)}`);
const warm: number[] = [];
for (let i = 0; i < 200; i++) {
  const t0 = performance.now();
  await v.validate(migration, PG18);
  warm.push(performance.now() - t0);
}
console.log(`warm ${Buffer.byteLength(migration)} B migration, median of 200: ${median(warm).toFixed(2)} ms`);
console.log(`${Buffer.byteLength(big)} B source, first time: ${await timed(v, big)}`);
for (let i = 1; i <= 3; i++) console.log(`${Buffer.byteLength(big)} B source, again (${i}): ${await timed(v, big)}`);
await v.close();
