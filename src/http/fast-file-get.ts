// The plain GET /v1/fs/file, answered before fastify: a small regular file read whole (or a window
// of it), authenticated and Host-checked with the same checks the daemon's onRequest hook makes,
// its path through the guard with the read policy (file-read.ts `readPlainWindow`, the first step
// of the fastify route too), the same reply headers. Anything else — another route or method, a
// query the route's schema or the range rule would refuse, a refused Host, Origin or token, a file
// the plain read does not answer, a configuration change to apply, a daemon closing — is passed on
// untouched to fastify, which answers it as before: the fast path only ever answers a 200 the route
// would have answered with the same bytes. It skips fastify's per-request work (routing, four
// hooks' promises, schema validation, reply serialisation), which cost more than the read itself.
// A request it answers is over (its reply handed to the socket) before the event loop turns, so the
// health route's busy count, which nothing could observe in between, is left alone.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { LineWindowQuery } from '../core/line-window.js';
import type { Engine } from '../tools/engine.js';
import { readPlainWindow } from './file-read.js';
import type { HostPolicy } from './host-check.js';

const PREFIX = '/v1/fs/file?';
/** The route's query keys (its schema refuses any other). */
const KEYS = new Set(['path', 'start_line', 'end_line']);
/** The route's header schema: an Authorization header, when sent, starts so. */
const AUTH_PATTERN = /^[Bb]earer /;

export interface FastFileGetOptions {
  engine: Engine;
  hosts: HostPolicy;
  checkToken: (authorization: string | undefined) => boolean;
  /** True once the daemon is closing (fastify then answers, closing the connection). */
  closing: () => boolean;
  version: string;
  versionHeader: string;
}

/**
 * The query of `url` (after PREFIX) as the route's schema would accept it, or null when anything
 * is unusual (a repeated or unknown key, a key without `=`, a `+`, a bad escape): fastify decides those.
 */
function plainQuery(url: string): LineWindowQuery | null {
  const out: Record<string, string> = {};
  for (const part of url.slice(PREFIX.length).split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq);
    if (!KEYS.has(key) || key in out) return null;
    const raw = part.slice(eq + 1);
    if (raw.includes('+')) return null;
    let value = raw;
    if (raw.includes('%')) {
      try {
        value = decodeURIComponent(raw);
      } catch {
        return null;
      }
    }
    out[key] = value;
  }
  return out.path === undefined ? null : out;
}

/** The reply's bytes when this request is the plain case, else null (and nothing was sent). */
function plainReply(req: IncomingMessage, o: FastFileGetOptions): Buffer | null {
  if (req.method !== 'GET' || !req.url?.startsWith(PREFIX) || o.closing()) return null;
  const h = req.headers;
  const auth = h.authorization;
  if (auth !== undefined && !AUTH_PATTERN.test(auth)) return null;
  if (!o.hosts.hostAllowed(h.host) || !o.hosts.originAllowed(h.origin, h.host) || !o.checkToken(auth)) return null;
  const query = plainQuery(req.url);
  if (query === null) return null;
  try {
    // an edited configuration file is applied by the full path (its guard is rebuilt asynchronously)
    if (!o.engine.refreshConfigSync()) return null;
    return readPlainWindow(o.engine, query);
  } catch {
    return null; // a bad range, a refused path: fastify words the error
  }
}

/**
 * Puts the fast path in front of `server`'s request listeners (fastify's handler): they run only
 * for requests it does not answer.
 */
export function installFastFileGet(server: Server, o: FastFileGetOptions): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const body = plainReply(req, o);
    if (body === null) {
      for (const listener of listeners) listener.call(server, req, res);
      return;
    }
    res.writeHead(200, { [o.versionHeader]: o.version, 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
}
