// The web console served by `hashline serve`: the page at / (the login form for a browser without
// a session), its static files under /console/assets/, login and logout, and the JSON endpoints and
// event stream of console-api.ts. Every console response carries the console's security headers
// (a strict CSP: no inline script). The daemon's Host/Origin checks run before all of it (server.ts);
// the bearer check does not apply here: the console has its own sessions (console-auth.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HashlineError } from '../../core/errors/errors.js';
import { tooManyAttempts, WRONG_TOKEN } from '../../core/messages/console.js';
import type { Engine } from '../../tools/engine.js';
import { readBody } from '../file/request-body.js';
import { type ConsoleApi, registerConsoleApi } from './console-api.js';
import { type AssetName, ASSET_NAMES, consoleAssets } from './console-assets.js';
import { ConsoleAuth } from './auth/console-auth.js';
import { LoginLimiter } from './auth/login-limiter.js';
import { loginPage } from './auth/login-page.js';
import { consoleHeaders } from './auth/security-headers.js';
import { SessionStore } from './auth/session-store.js';

export interface ConsoleOptions {
  /** The daemon's token; undefined: an open console (the daemon then listens on loopback only). */
  token: string | undefined;
  bodyIdleTimeoutMs: number;
  requestTimeoutMs: number;
  /** Milliseconds between looks at the store while the feed is watched (default 50; PostgreSQL 250). */
  pollMs?: number;
  sessions?: SessionStore;
  limiter?: LoginLimiter;
}

export interface ConsoleHandle {
  readonly auth: ConsoleAuth;
  /** Ends event streams and stops following the store (the daemon's preClose). */
  close(): void;
}

/** True for the URLs the console serves (they are exempt from the bearer check, not from Host/Origin). */
export function isConsoleUrl(url: string): boolean {
  return url === '/' || url === '/console' || url.startsWith('/console/');
}

const LOGIN_BODY_BYTES = 8 * 1024;

export async function registerConsole(app: FastifyInstance, engine: Engine, options: ConsoleOptions): Promise<ConsoleHandle> {
  const auth = new ConsoleAuth(options.token, options.sessions ?? new SessionStore());
  const limiter = options.limiter ?? new LoginLimiter();
  // read at start, so a package without its assets fails now, not on the first visit
  const assets = consoleAssets();
  let api: ConsoleApi | undefined;

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      consoleHeaders(reply);
    });
    const page = (reply: FastifyReply, status: number, html: string) => reply.code(status).type('text/html; charset=utf-8').send(html);

    scope.get('/', async (request, reply) => {
      if (!auth.admitted(request)) return page(reply, 200, loginPage());
      const a = assets.get('console.html')!;
      return reply.code(200).type(a.type).send(a.body);
    });
    scope.get('/console', async (_request, reply) => reply.code(303).header('location', '/').send());

    scope.get('/console/assets/:name', async (request, reply) => {
      const name = (request.params as { name: string }).name;
      const a = (ASSET_NAMES as readonly string[]).includes(name) ? assets.get(name as AssetName) : undefined;
      if (a === undefined) throw new HashlineError('not_found', `no console asset ${name}`);
      return reply.code(200).type(a.type).send(a.body);
    });

    scope.post('/console/login', async (request: FastifyRequest, reply: FastifyReply) => {
      auth.requireOwnOrigin(request);
      const address = request.ip;
      // counted before the token is read, so attempts sent at once cannot all pass the check
      const wait = limiter.take(address);
      if (wait > 0) {
        request.raw.resume();
        return page(reply.header('retry-after', String(wait)), 429, loginPage(tooManyAttempts(wait)));
      }
      const body = await readBody(request.raw, { limit: LOGIN_BODY_BYTES, idleMs: options.bodyIdleTimeoutMs, totalMs: options.requestTimeoutMs });
      const token = new URLSearchParams(body.toString('utf8')).get('token') ?? '';
      if (auth.open || auth.tokenMatches(token)) {
        limiter.refund(address);
        auth.start(request, reply);
        return reply.code(303).header('location', '/').send();
      }
      return page(reply, 401, loginPage(WRONG_TOKEN));
    });

    scope.post('/console/logout', async (request, reply) => {
      auth.requireWrite(request);
      request.raw.resume();
      auth.end(request, reply);
      return reply.code(200).send({ loggedOut: true });
    });

    api = registerConsoleApi(scope, engine, auth, { bodyIdleTimeoutMs: options.bodyIdleTimeoutMs, requestTimeoutMs: options.requestTimeoutMs, ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }) });
  });

  return {
    auth,
    close() {
      api?.close();
    },
  };
}
