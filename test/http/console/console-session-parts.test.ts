// The console's session parts on their own: session expiry (idle and absolute) and the cap, the
// login rate limit's window, the same-origin rule for state-changing requests, the CSRF comparison,
// the cookie's attributes and parsing, and how a typed path becomes a history key.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cookieName, readCookie, sessionCookie } from '../../../src/http/console/auth/cookie.js';
import { csrfMatches, fromOwnOrigin } from '../../../src/http/console/auth/csrf.js';
import { clientKey, LoginLimiter } from '../../../src/http/console/auth/login-limiter.js';
import { historyKeyOf } from '../../../src/http/console/path-filter.js';
import { SessionStore } from '../../../src/http/console/auth/session-store.js';
import { PathGuard } from '../../../src/io/guard/path-guard.js';
import { makeSandbox } from '../../helpers/tmp-tree.js';

test('sessions end when idle too long or too old; the oldest goes past the cap', () => {
  let now = 1_000;
  const store = new SessionStore({ idleMs: 100, maxAgeMs: 250, maxSessions: 2 }, () => now);
  const a = store.open('http:loopback');
  assert.equal(store.get(a.id), a.session);
  now += 90;
  assert.ok(store.get(a.id), 'used within the idle limit');
  now += 90;
  assert.ok(store.get(a.id));
  now += 101;
  assert.equal(store.get(a.id), undefined, 'idle too long');
  const b = store.open('x');
  now += 99;
  store.get(b.id);
  now += 99;
  store.get(b.id);
  now += 60;
  assert.equal(store.get(b.id), undefined, 'older than maxAgeMs though used');
  const c = store.open('x');
  const d = store.open('x');
  const e = store.open('x');
  assert.equal(store.get(c.id), undefined, 'the oldest went past the cap');
  assert.ok(store.get(d.id) && store.get(e.id));
  assert.equal(store.get('x'.repeat(500)), undefined);
  store.close(d.id);
  assert.equal(store.get(d.id), undefined);
});

test('logins: 5 attempts per address per window, counted before the check; a right token gives its attempt back', () => {
  let now = 0;
  const limiter = new LoginLimiter({ perAddress: 5, windowMs: 60_000 }, () => now);
  for (let i = 0; i < 5; i++) {
    assert.equal(limiter.take('10.0.0.1'), 0);
    now += 1000;
  }
  assert.equal(limiter.take('10.0.0.1'), 55);
  assert.equal(limiter.take('::ffff:10.0.0.1'), 55, 'an IPv4-mapped address is the same client');
  for (let i = 0; i < 50; i++) limiter.take('10.0.0.2');
  assert.equal(limiter.take('10.0.0.3'), 0, 'no address is held by another one');
  // a success refunds: logging in repeatedly does not use up the allowance
  for (let i = 0; i < 10; i++) {
    assert.equal(limiter.take('10.0.0.4'), 0);
    limiter.refund('10.0.0.4');
  }
  now += 60_000;
  assert.equal(limiter.take('10.0.0.1'), 0);
});

test('an IPv6 client is counted by its /64', () => {
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:0db8:0001:0002:ffff:1:2:3'), '2001:db8:1:2::/64');
  assert.equal(clientKey('::1'), '0:0:0:0::/64');
  assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(clientKey('127.0.0.1'), '127.0.0.1');
  const limiter = new LoginLimiter({ perAddress: 2, windowMs: 60_000 }, () => 0);
  limiter.take('2001:db8:1:2::a');
  limiter.take('2001:db8:1:2::b');
  assert.ok(limiter.take('2001:db8:1:2::c') > 0, 'another address of the same /64 waits');
  assert.equal(limiter.take('2001:db8:1:3::a'), 0);
});

test('own origin: Origin, else Referer, must name this Host and port; Sec-Fetch-Site must be same-origin', () => {
  const host = '127.0.0.1:9000';
  assert.equal(fromOwnOrigin({ host, origin: 'http://127.0.0.1:9000' }), true);
  assert.equal(fromOwnOrigin({ host: 'localhost', origin: 'http://localhost:80' }), true);
  assert.equal(fromOwnOrigin({ host, origin: 'http://127.0.0.1:9001' }), false);
  assert.equal(fromOwnOrigin({ host, origin: 'http://localhost:9000' }), false, 'another name of the host is another origin');
  assert.equal(fromOwnOrigin({ host, origin: 'null' }), false);
  assert.equal(fromOwnOrigin({ host, origin: 'file://' }), false);
  assert.equal(fromOwnOrigin({ host, referer: 'http://127.0.0.1:9000/#/feed' }), true);
  assert.equal(fromOwnOrigin({ host, referer: 'http://evil.example/' }), false);
  assert.equal(fromOwnOrigin({ host, origin: 'http://127.0.0.1:9000', 'sec-fetch-site': 'same-site' }), false);
  assert.equal(fromOwnOrigin({ host }), true, 'a script without Origin: the CSRF token decides');
  assert.equal(fromOwnOrigin({}), false);
  assert.equal(csrfMatches('abc', { 'x-hashline-csrf': 'abc' }), true);
  assert.equal(csrfMatches('abc', { 'x-hashline-csrf': 'abd' }), false);
  assert.equal(csrfMatches('abc', {}), false);
});

test('the cookie: HttpOnly, SameSite=Strict, per port; parsed from a Cookie header', () => {
  assert.equal(sessionCookie(cookieName(9000), 'abc_-1', { maxAge: 60 }), 'hashline_console_9000=abc_-1; Path=/; HttpOnly; SameSite=Strict; Max-Age=60');
  assert.throws(() => sessionCookie('n', 'a;b', { maxAge: 1 }));
  assert.equal(readCookie('x=1; hashline_console_9000=abc; y=2', 'hashline_console_9000'), 'abc');
  assert.equal(readCookie('hashline_console_9001=abc', 'hashline_console_9000'), undefined);
  assert.equal(readCookie(undefined, 'a'), undefined);
});

test('a typed path becomes the real path the history keys by (folders keep their slash)', async () => {
  const sb = await makeSandbox();
  try {
    const guard = await PathGuard.create({ root: sb.root });
    assert.equal(historyKeyOf(guard, 'src/a.ts'), `${sb.root}/src/a.ts`);
    assert.equal(historyKeyOf(guard, 'src/'), `${sb.root}/src/`);
    assert.equal(historyKeyOf(guard, `${sb.root}/x/../y.txt`), `${sb.root}/y.txt`);
  } finally {
    await sb.cleanup();
  }
});
