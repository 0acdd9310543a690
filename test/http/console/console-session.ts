// Logs in to a daemon's console over real HTTP, as a browser would (a form post from the console's
// own origin), and keeps the session cookie and CSRF token for the calls that follow.

import assert from 'node:assert/strict';
import type { Daemon } from '../harness.js';

export interface ConsoleSession {
  cookie: string;
  csrf: string;
  /** A console request with the session cookie (and, for POSTs, the console's own Origin). */
  call(pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** A POST of JSON with the CSRF token, from the console's own origin. */
  post(pathAndQuery: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function loginForm(d: Daemon, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return d.call('/console/login', {
    auth: false,
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: d.url, ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
}

/** The `name=value` of the Set-Cookie of a response. */
export function cookieOf(r: Response): string {
  const set = r.headers.getSetCookie();
  assert.equal(set.length, 1, `one Set-Cookie, got ${JSON.stringify(set)}`);
  return set[0]!.split(';', 1)[0]!;
}

export function sessionFrom(d: Daemon, cookie: string, csrf: string): ConsoleSession {
  const call = (p: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('cookie')) headers.set('cookie', cookie);
    return d.call(p, { ...init, auth: false, headers } as RequestInit & { auth: boolean });
  };
  return {
    cookie,
    csrf,
    call,
    post: (p, body, headers = {}) =>
      call(p, { method: 'POST', headers: { 'content-type': 'application/json', origin: d.url, 'x-hashline-csrf': csrf, ...headers }, body: JSON.stringify(body) }),
  };
}

/** Logs in with `token` (a daemon without a token: opens an anonymous session) and returns the session. */
export async function login(d: Daemon, token?: string): Promise<ConsoleSession> {
  let cookie: string;
  if (token !== undefined) {
    const r = await loginForm(d, token);
    assert.equal(r.status, 303, await r.text());
    cookie = cookieOf(r);
  } else {
    const r = await d.call('/console/api/session', { auth: false });
    assert.equal(r.status, 200);
    cookie = cookieOf(r);
  }
  const s = await d.call('/console/api/session', { auth: false, headers: { cookie } });
  assert.equal(s.status, 200, await s.clone().text());
  const { csrf } = (await s.json()) as { csrf: string };
  return sessionFrom(d, cookie, csrf);
}
