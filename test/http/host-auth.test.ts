// The DNS-rebinding policy (Host and Origin) and the bearer check, table by table.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { bearerChecker, httpClientId, tokenMatcher } from '../../src/http/auth.js';
import { hostPolicy, isLoopbackHost } from '../../src/http/host-check.js';

test('loopback hosts', () => {
  for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) assert.equal(isLoopbackHost(h), true, h);
  for (const h of ['0.0.0.0', '10.0.0.1', 'example.com', '128.0.0.1', 'localhost.evil.com']) assert.equal(isLoopbackHost(h), false, h);
});

test('bound to loopback: Host and Origin must be loopback', () => {
  const p = hostPolicy('127.0.0.1');
  for (const h of ['127.0.0.1:9000', 'localhost:9000', 'localhost', '[::1]:9000']) assert.equal(p.hostAllowed(h), true, h);
  for (const h of ['evil.example:9000', 'evil.example', '10.0.0.1:9000', 'localhost.evil.example', undefined]) assert.equal(p.hostAllowed(h), false, String(h));
  assert.equal(p.originAllowed(undefined, 'localhost:9000'), true);
  assert.equal(p.originAllowed('http://localhost:3000', 'localhost:9000'), true);
  assert.equal(p.originAllowed('http://127.0.0.1:9000', 'localhost:9000'), true);
  for (const o of ['http://evil.example', 'https://localhost.evil.example', 'null', 'file://', 'chrome-extension://abc']) {
    assert.equal(p.originAllowed(o, 'localhost:9000'), false, o);
  }
});

test('an explicit allow-list replaces the defaults', () => {
  const p = hostPolicy('0.0.0.0', ['files.internal:9000']);
  assert.equal(p.hostAllowed('files.internal:9000'), true);
  assert.equal(p.hostAllowed('localhost:9000'), false);
  assert.equal(p.originAllowed('http://files.internal', 'files.internal:9000'), true);
  assert.equal(p.originAllowed('http://evil.example', 'files.internal:9000'), false);
});

test('bound to a wildcard with no list: any Host, and an Origin must match it', () => {
  const p = hostPolicy('0.0.0.0');
  assert.equal(p.hostAllowed('192.168.1.5:9000'), true);
  assert.equal(p.originAllowed('http://192.168.1.5:9000', '192.168.1.5:9000'), true);
  assert.equal(p.originAllowed('http://evil.example', '192.168.1.5:9000'), false);
});

test('bearer check', () => {
  const open = bearerChecker(undefined);
  assert.equal(open(undefined), true);
  const check = bearerChecker('abc-123');
  assert.equal(check('Bearer abc-123'), true);
  assert.equal(check('bearer abc-123'), true);
  for (const h of [undefined, '', 'Bearer', 'Bearer ', 'Bearer abc-12', 'Bearer abc-1234', 'Basic abc-123', 'abc-123']) {
    assert.equal(check(h), false, String(h));
  }
});

test('tokens are compared as UTF-8, and the client id is the SHA-256 of the token as before', () => {
  const token = 'clé-été-✓-0123';
  const check = bearerChecker(token);
  assert.equal(check(`Bearer ${token}`), true);
  for (const h of ['Bearer cle-ete-✓-0123', `Bearer ${token.normalize('NFD')}`, `Bearer ${token}x`]) assert.equal(check(h), false, h);
  assert.equal(tokenMatcher(token)(token), true);
  assert.equal(tokenMatcher(token)(token.slice(0, -1)), false);
  const expected = createHash('sha256').update(`hashline-token-id:${token}`, 'utf8').digest('hex').slice(0, 8);
  assert.equal(httpClientId(token), `http:${expected}`);
});
