// What a state-changing console request (login, logout, rollback) must prove besides its session:
// that it comes from the console's own origin (Origin, else Referer, must name exactly this Host,
// port included, and a browser's Sec-Fetch-Site must say same-origin), and, once a session exists,
// that it carries the session's CSRF token. SameSite=Strict alone is not enough on a loopback host:
// other ports of the same host are the same site to a browser.

import { createHash, timingSafeEqual } from 'node:crypto';

export const CSRF_HEADER = 'x-hashline-csrf';

type Headers = Record<string, string | string[] | undefined>;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** `host[:port]` lower-cased, without the scheme's default port. */
function authority(host: string, protocol: string): string {
  const h = host.trim().toLowerCase();
  if (protocol === 'http:' && h.endsWith(':80')) return h.slice(0, -3);
  if (protocol === 'https:' && h.endsWith(':443')) return h.slice(0, -4);
  return h;
}

function sameAuthority(url: string, hostHeader: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return authority(u.host, u.protocol) === authority(hostHeader, u.protocol);
}

/**
 * True when the request may come from the console's own page. A request with neither Origin nor
 * Referer (a script, not a browser) passes here: the CSRF token is what it must still carry.
 */
export function fromOwnOrigin(headers: Headers): boolean {
  const host = one(headers.host);
  if (host === undefined) return false;
  const site = one(headers['sec-fetch-site']);
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = one(headers.origin);
  if (origin !== undefined) return origin !== 'null' && sameAuthority(origin, host);
  const referer = one(headers.referer);
  if (referer !== undefined) return sameAuthority(referer, host);
  return true;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison of the presented CSRF token with the session's. */
export function csrfMatches(expected: string, headers: Headers): boolean {
  const given = one(headers[CSRF_HEADER]);
  if (given === undefined || given === '') return false;
  return timingSafeEqual(digest(given), digest(expected));
}
