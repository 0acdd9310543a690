// Bearer-token check: the presented token and the configured one are hashed to equal-length
// digests and compared with crypto.timingSafeEqual, so the comparison time says nothing about
// either token. The console's login form presents the same token through `tokenMatcher`.

import * as crypto from 'node:crypto';

const { createHash, timingSafeEqual } = crypto;
/** crypto.hash (Node >= 20.12): one call, no Hash object; about half the cost per request. */
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : undefined;

const digest = (s: string): Buffer => (oneShot ? oneShot('sha256', s, 'buffer') : createHash('sha256').update(s, 'utf8').digest());

/** A constant-time check of a presented token against the configured one (false when none is configured). */
export function tokenMatcher(token: string | undefined): (given: string) => boolean {
  if (token === undefined) return () => false;
  const expected = digest(token);
  return (given) => timingSafeEqual(digest(given), expected);
}

/** A checker for `Authorization` headers; with no token configured every request passes. */
export function bearerChecker(token: string | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const matches = tokenMatcher(token);
  return (authorization) => {
    const m = /^Bearer[ ]+(.+)$/i.exec(authorization ?? '');
    const ok = matches(m ? m[1]!.trim() : '\u0000no token\u0000');
    return ok && m !== null;
  };
}

/**
 * How the history's log names a client of the HTTP daemon: `http:` and the first 8 hex digits of
 * the token's SHA-256 (never the token), or `http:loopback` for a daemon without a token.
 */
export function httpClientId(token: string | undefined): string {
  return token === undefined ? 'http:loopback' : `http:${digest(`hashline-token-id:${token}`).toString('hex').slice(0, 8)}`;
}
