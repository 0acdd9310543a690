// Headers every console response carries. Pages get a strict Content-Security-Policy: scripts,
// styles and connections from this origin only, no inline script or style, no plugins, no framing,
// forms post only here. JSON and the event stream are never sniffed as HTML and never cached.

import type { FastifyReply } from 'fastify';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of a console response (any kind). */
export function consoleHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'no-store');
}

/** The same headers for a response written on the raw socket (the event stream). */
export const RAW_CONSOLE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});
