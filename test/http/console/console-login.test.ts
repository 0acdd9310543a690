// The console's login over real HTTP: the form at /, a wrong token refused (401, the form again), a
// right one answered with an HttpOnly, SameSite=Strict session cookie that carries a random id (not
// the token), the session opening the JSON endpoints but never the bearer-token API, logout ending
// it, failed logins rate-limited per address (a burst sent at once included, and never holding
// another address), a login from a foreign origin refused, and a daemon without a
// token serving an open console that still hands out a CSRF-bearing session.

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type Daemon, startDaemon } from '../harness.js';
import { cookieOf, login, loginForm, sessionFrom } from './console-session.js';

const TOKEN = 'console-login-token-0123456789';

describe('console login with a token', () => {
  let d: Daemon;
  before(async () => {
    d = await startDaemon({ token: TOKEN, files: { 'a.txt': 'a\n' } });
  });
  after(() => d.close());

  test('/ without a session is the login form, under a strict CSP', async () => {
    const r = await d.call('/', { auth: false });
    assert.equal(r.status, 200);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'/);
    assert.match(csp, /default-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const html = await r.text();
    assert.match(html, /<form method="post" action="\/console\/login"/);
    assert.match(html, /<label for="token">Token<\/label>/);
    assert.doesNotMatch(html, /<script/i, 'no script at all on the login page');
    assert.ok(!html.includes(d.sandbox.root), 'nothing of the server (its root) is shown before a login');
  });

  test('a wrong token: 401 with the form again, no cookie', async () => {
    const r = await loginForm(d, 'not-the-token');
    assert.equal(r.status, 401);
    assert.deepEqual(r.headers.getSetCookie(), []);
    const html = await r.text();
    assert.match(html, /role="alert"[^>]*>wrong token</);
    assert.match(html, /<input id="token" name="token" type="password"/);
  });

  test('the right token: a session cookie (HttpOnly, SameSite=Strict) holding a random id, not the token', async () => {
    const r = await loginForm(d, TOKEN);
    assert.equal(r.status, 303);
    assert.equal(r.headers.get('location'), '/');
    const [set] = r.headers.getSetCookie();
    const attrs = set!.split(';').map((s) => s.trim());
    assert.ok(attrs.includes('HttpOnly'), set);
    assert.ok(attrs.includes('SameSite=Strict'), set);
    assert.ok(attrs.includes('Path=/'), set);
    assert.ok(attrs.some((a) => /^Max-Age=[1-9][0-9]*$/.test(a)), set);
    const value = set!.split(';', 1)[0]!.split('=')[1]!;
    assert.match(value, /^[A-Za-z0-9_-]{43}$/, '256 random bits, base64url');
    assert.ok(!set!.includes(TOKEN));
    const again = cookieOf(await loginForm(d, TOKEN));
    assert.notEqual(again.split('=')[1], value, 'every login makes a new id');
  });

  test('a session opens the console page and its endpoints, not the bearer-token API', async () => {
    const s = await login(d, TOKEN);
    const page = await s.call('/');
    assert.match(await page.text(), /<script type="module" src="\/console\/assets\/console.js"><\/script>/);
    assert.equal((await s.call('/console/api/feed')).status, 200);
    assert.equal((await s.call('/console/api/guard')).status, 200);
    assert.equal((await s.call('/v1/fs/file?path=a.txt')).status, 401, 'the cookie is not a bearer token');
    assert.equal((await d.call('/console/api/feed', { auth: false })).status, 401);
    assert.equal((await d.call('/console/api/feed', { auth: false, headers: { cookie: 'hashline_console_1=forged' } })).status, 401);
  });

  test('logout needs the CSRF token, then ends the session', async () => {
    const s = await login(d, TOKEN);
    const refused = await s.call('/console/logout', { method: 'POST', headers: { origin: d.url } });
    assert.equal(refused.status, 403);
    assert.equal((await s.call('/console/api/feed')).status, 200, 'still logged in');
    const out = await s.post('/console/logout', {});
    assert.equal(out.status, 200);
    assert.match(out.headers.getSetCookie()[0] ?? '', /Max-Age=0/);
    assert.equal((await s.call('/console/api/feed')).status, 401);
    const stale = sessionFrom(d, s.cookie, s.csrf);
    assert.equal((await stale.post('/console/api/rollback', { id: 1 })).status, 401);
  });

  test('a login posted from a foreign origin is refused before the token is looked at', async () => {
    const r = await loginForm(d, TOKEN, { origin: 'http://127.0.0.1:1' });
    assert.equal(r.status, 403);
    assert.deepEqual(r.headers.getSetCookie(), []);
    const site = await loginForm(d, TOKEN, { origin: d.url, 'sec-fetch-site': 'cross-site' });
    assert.equal(site.status, 403);
  });
});

test('failed logins are rate-limited per address: after 5, even the right token waits', async () => {
  const d = await startDaemon({ token: TOKEN });
  try {
    for (let i = 0; i < 5; i++) assert.equal((await loginForm(d, `wrong-${i}`)).status, 401);
    const limited = await loginForm(d, TOKEN);
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
    assert.match(await limited.text(), /too many failed logins/);
    assert.deepEqual(limited.headers.getSetCookie(), []);
  } finally {
    await d.close();
  }
});

/**
 * A login form posted from the local address `from` (127.0.0.0/8 is all loopback on Linux); with
 * `hold`, the body is sent only once `hold` resolves (the headers go at once).
 */
function loginFrom(d: Daemon, from: string, token: string, hold?: Promise<void>): Promise<{ status: number; cookies: string[] }> {
  const u = new URL(d.url);
  const body = new URLSearchParams({ token }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        localAddress: from,
        method: 'POST',
        path: '/console/login',
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: d.url, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cookies: (res.headers['set-cookie'] as string[] | undefined) ?? [] }));
      },
    );
    req.on('error', reject);
    if (hold === undefined) req.end(body);
    else {
      req.flushHeaders();
      void hold.then(() => req.end(body));
    }
  });
}

test('50 wrong logins sent at once: 5 are checked, 45 refused; another address still logs in', async () => {
  const d = await startDaemon({ token: TOKEN });
  try {
    // every request is in the server, its token not yet read, before any body is sent
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const sent = Array.from({ length: 50 }, (_, i) => loginFrom(d, '127.0.0.1', `wrong-${i}`, hold));
    for (let t0 = Date.now(); d.requests() < 50 && Date.now() - t0 < 10_000; ) await new Promise((r) => setTimeout(r, 10));
    release();
    const burst = await Promise.all(sent);
    const statuses = burst.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 401).length, 5, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 45, statuses.join(','));
    // the burst's address waits, the right token included; another address is not held by it
    assert.equal((await loginFrom(d, '127.0.0.1', TOKEN)).status, 429);
    const other = await loginFrom(d, '127.0.0.2', TOKEN);
    assert.equal(other.status, 303);
    assert.equal(other.cookies.length, 1);
    // and a right token gives its attempt back: logging in again and again is not limited
    for (let i = 0; i < 8; i++) assert.equal((await loginFrom(d, '127.0.0.3', TOKEN)).status, 303);
  } finally {
    await d.close();
  }
});

test('without a token: the console is open, and its session still carries a CSRF token', async () => {
  const d = await startDaemon({ files: { 'a.txt': 'a\n' } });
  try {
    const page = await d.call('/', { auth: false });
    assert.match(await page.text(), /console\.js/);
    const s = await login(d);
    assert.match(s.csrf, /^[A-Za-z0-9_-]{43}$/);
    const noCsrf = await s.call('/console/api/rollback', { method: 'POST', headers: { 'content-type': 'application/json', origin: d.url }, body: '{"id":1}' });
    assert.equal(noCsrf.status, 403);
    // fetch will not set Host: a raw request names a rebinding attacker's host
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const u = new URL(d.url);
      http.get({ host: u.hostname, port: u.port, path: '/console/api/session', headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      }).on('error', reject);
    });
    assert.equal(status, 403, 'the Host check (DNS rebinding) guards the open console too');
  } finally {
    await d.close();
  }
});
