// The plain GET /v1/fs/file, answered before fastify: a small regular file read whole (or a window
// of it), authenticated and Host-checked with the same checks the daemon's onRequest hook makes,
// its path through the guard with the read policy (file-read.ts `readPlainWindow`, the first step
// of the fastify route too), the same reply headers. Anything else — another route or method, a
// query the route's schema or the range rule would refuse, a refused Host, Origin or token, a file
// the plain read does not answer, a configuration change to apply, a daemon closing — is passed on
// untouched to fastify, which answers it as before: the fast path only ever answers a 200 the route
// would have answered with the same bytes. It skips fastify's per-request work (routing, four
// hooks' promises, schema validation, reply serialisation), which cost more than the read itself.
// The requests that pass the checks wait for the end of the event loop's turn (turn-batch.ts),
// then one look at the configuration file serves them all: each was read from its socket before
// that look, so an edit saved before a request was sent applies to it. They count as busy for the
// health route while they wait.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { LineWindowQuery } from '../../core/read/line-window.js';
import type { Engine } from '../../tools/engine.js';
import { readPlainWindow } from './file-read.js';
import type { HostPolicy } from '../host-check.js';
import { TurnBatch } from '../turn-batch.js';

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
  /** Told +1 when a request starts waiting for its turn's end, -1 when it is answered or passed on. */
  track?: (delta: number) => void;
  version: string;
  versionHeader: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  query: LineWindowQuery;
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

/** The query when this request may be the plain case (every check but the configuration's and the read's), else null. */
function plainRequest(req: IncomingMessage, o: FastFileGetOptions): LineWindowQuery | null {
  if (req.method !== 'GET' || !req.url?.startsWith(PREFIX) || o.closing()) return null;
  const h = req.headers;
  const auth = h.authorization;
  if (auth !== undefined && !AUTH_PATTERN.test(auth)) return null;
  if (!o.hosts.hostAllowed(h.host) || !o.hosts.originAllowed(h.origin, h.host) || !o.checkToken(auth)) return null;
  return plainQuery(req.url);
}

/** The window's bytes when the plain read answers, else null (a bad range, a refused path: fastify words the error). */
function plainBody(engine: Engine, query: LineWindowQuery): Buffer | null {
  try {
    return readPlainWindow(engine, query);
  } catch {
    return null;
  }
}

/**
 * Puts the fast path in front of `server`'s request listeners (fastify's handler): they run only
 * for requests it does not answer.
 */
export function installFastFileGet(server: Server, o: FastFileGetOptions): void {
  const listeners = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  const passOn = (req: IncomingMessage, res: ServerResponse) => {
    for (const listener of listeners) listener.call(server, req, res);
  };
  const answer = ({ req, res, query }: Waiting, current: boolean) => {
    if (req.socket.destroyed) return; // the client is gone: nothing to answer
    const body = current ? plainBody(o.engine, query) : null;
    if (body === null) return passOn(req, res);
    res.writeHead(200, { [o.versionHeader]: o.version, 'content-type': 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  };
  const batch = new TurnBatch<Waiting>((waiting) => {
    // One look for the whole batch, taken after every request in it was read. An edited
    // configuration is applied by the full path (its guard is rebuilt asynchronously).
    let current = false;
    try {
      current = !o.closing() && o.engine.refreshConfigSync();
    } catch {
      current = false;
    }
    let failure: { error: unknown } | undefined;
    for (const w of waiting) {
      o.track?.(-1);
      try {
        answer(w, current);
      } catch (error) {
        failure ??= { error }; // the others are still answered
      }
    }
    if (failure) throw failure.error;
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const query = plainRequest(req, o);
    if (query === null) return passOn(req, res);
    o.track?.(1);
    batch.add({ req, res, query });
  });
}
