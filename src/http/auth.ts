// Bearer-token check: the presented token and the configured one are hashed to equal-length
// digests and compared with crypto.timingSafeEqual, so the comparison time says nothing about
// either token.

import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** A checker for `Authorization` headers; with no token configured every request passes. */
export function bearerChecker(token: string | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined) return () => true;
  const expected = digest(token);
  return (authorization) => {
    const m = /^Bearer[ ]+(.+)$/i.exec(authorization ?? '');
    const given = digest(m ? m[1]!.trim() : '\u0000no token\u0000');
    return timingSafeEqual(given, expected) && m !== null;
  };
}
