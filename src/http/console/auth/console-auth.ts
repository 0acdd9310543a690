// Who may use the console. With a token configured, a session cookie opened by a login with that
// token (the token itself never leaves the login request); without one (loopback only), everyone
// who passes the daemon's Host/Origin checks, with an anonymous session made on the first visit so
// that state-changing requests still carry a CSRF token. Every state-changing request (login,
// logout, rollback) must come from the console's own origin; logout and rollback must also carry
// the session's CSRF token.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { HashlineError } from '../../../core/errors/errors.js';
import { CROSS_ORIGIN_REFUSED, CSRF_REFUSED, LOGIN_REQUIRED } from '../../../core/messages/console.js';
import { httpClientId, tokenMatcher } from '../../auth.js';
import { cookieName, readCookie, sessionCookie } from './cookie.js';
import { csrfMatches, fromOwnOrigin } from './csrf.js';
import type { Session, SessionStore } from './session-store.js';

export class ConsoleAuth {
  /** True when the daemon has no token: the console is open (Host/Origin checks still apply). */
  readonly open: boolean;
  readonly client: string;
  private readonly matches: (given: string) => boolean;

  constructor(
    token: string | undefined,
    readonly sessions: SessionStore,
  ) {
    this.open = token === undefined;
    this.client = httpClientId(token);
    this.matches = tokenMatcher(token);
  }

  /** Constant-time check of a token typed into the login form. */
  tokenMatches(given: string): boolean {
    return this.matches(given);
  }

  private cookie(request: FastifyRequest): string {
    return cookieName(request.raw.socket.localPort);
  }

  private id(request: FastifyRequest): string | undefined {
    return readCookie(request.headers.cookie, this.cookie(request));
  }

  /** The request's live session, or undefined. */
  session(request: FastifyRequest): Session | undefined {
    return this.sessions.get(this.id(request));
  }

  /** True when the request may see the console (a session, or an open console). */
  admitted(request: FastifyRequest): boolean {
    return this.open || this.session(request) !== undefined;
  }

  /** For reads: refuses (401) a request without a session unless the console is open. */
  requireRead(request: FastifyRequest): Session | undefined {
    const s = this.session(request);
    if (s === undefined && !this.open) throw new HashlineError('unauthorized', LOGIN_REQUIRED);
    return s;
  }

  /** For a state-changing request: own origin, a session, and its CSRF token. */
  requireWrite(request: FastifyRequest): Session {
    this.requireOwnOrigin(request);
    const s = this.session(request);
    if (s === undefined) throw new HashlineError('unauthorized', LOGIN_REQUIRED);
    if (!csrfMatches(s.csrf, request.headers)) throw new HashlineError('forbidden', CSRF_REFUSED);
    return s;
  }

  requireOwnOrigin(request: FastifyRequest): void {
    if (!fromOwnOrigin(request.headers)) throw new HashlineError('forbidden', CROSS_ORIGIN_REFUSED);
  }

  /** Opens a session and sets its cookie on `reply`. */
  start(request: FastifyRequest, reply: FastifyReply): Session {
    this.sessions.close(this.id(request));
    const { id, session } = this.sessions.open(this.client);
    reply.header('set-cookie', sessionCookie(this.cookie(request), id, { maxAge: this.sessions.cookieSeconds }));
    return session;
  }

  /** Ends the request's session and clears its cookie. */
  end(request: FastifyRequest, reply: FastifyReply): void {
    this.sessions.close(this.id(request));
    reply.header('set-cookie', sessionCookie(this.cookie(request), '', { maxAge: 0 }));
  }
}
