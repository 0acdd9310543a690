// GET /v1/schema and GET /v1/health: no auth; the OpenAPI document is built from the same route
// specs the routes are registered from, so every route and query key appears in it.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ROUTE_SPECS } from '../../src/http/route-schemas.js';
import { VERSION } from '../../src/version.js';
import { type Daemon, startDaemon } from './harness.js';

let d: Daemon;
before(async () => {
  d = await startDaemon({ token: 't' });
});
after(() => d.close());

test('health answers without a token', async () => {
  const r = await d.call('/v1/health', { auth: false });
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('hashline-version'), VERSION);
  const body = (await r.json()) as { version: string; disk: { available_bytes: number; reserve_bytes: number; under_pressure: boolean } };
  assert.equal(body.version, VERSION);
  assert.equal(typeof body.disk.available_bytes, 'number');
  assert.equal(body.disk.under_pressure, false);
});

test('the OpenAPI document lists every route with the query keys the routes accept', async () => {
  const r = await d.call('/v1/schema', { auth: false });
  assert.equal(r.status, 200);
  const doc = (await r.json()) as { openapi: string; paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; responses: Record<string, unknown> }>> };
  assert.match(doc.openapi, /^3\./);
  for (const spec of ROUTE_SPECS) {
    const op = doc.paths[spec.url]?.[spec.method.toLowerCase()];
    assert.ok(op, `${spec.method} ${spec.url}`);
    assert.deepEqual((op.parameters ?? []).map((p) => p.name), Object.keys(spec.querystring?.properties ?? {}));
    assert.deepEqual(Object.keys(op.responses), Object.keys(spec.responses));
  }
  const fileGet = doc.paths['/v1/fs/file']!.get!;
  assert.deepEqual(fileGet.parameters!.map((p) => p.name), ['path', 'start_line', 'end_line']);
});

test('an unknown route → 404 text/plain', async () => {
  const r = await d.call('/v1/nope');
  assert.equal(r.status, 404);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
});
