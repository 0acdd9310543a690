// The console's sessions, kept in this process only: a login (or, on a daemon without a token, the
// first visit) makes a random 256-bit session id, which is all the cookie carries (never the token);
// the store keys sessions by the id's SHA-256 and holds each one's CSRF token, its idle and
// absolute expiry, and the token id it was opened with. A restart, a logout or an expiry ends a
// session. The number of sessions is capped (the oldest goes first).

import { createHash, randomBytes } from 'node:crypto';

export interface Session {
  /** Sent by the page with every state-changing request (header `x-hashline-csrf`). */
  readonly csrf: string;
  readonly created: number;
  lastSeen: number;
  /** How the history names the session's changes (`http:<token id>` or `http:loopback`). */
  readonly client: string;
}

export interface SessionLimits {
  /** A session unused this long ends (ms). */
  idleMs: number;
  /** A session ends this long after it began, used or not (ms). */
  maxAgeMs: number;
  /** At most this many sessions at once. */
  maxSessions: number;
}

export const SESSION_LIMITS: SessionLimits = { idleMs: 8 * 3600_000, maxAgeMs: 24 * 3600_000, maxSessions: 256 };

const keyOf = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');
const token = () => randomBytes(32).toString('base64url');

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly limits: SessionLimits = SESSION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens a session; returns the id for the cookie and the session. */
  open(client: string): { id: string; session: Session } {
    const id = token();
    const at = this.now();
    const session: Session = { csrf: token(), created: at, lastSeen: at, client };
    this.sweep();
    while (this.sessions.size >= this.limits.maxSessions) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(keyOf(id), session);
    return { id, session };
  }

  /** The live session with this id (its idle clock restarts), or undefined. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined || id === '' || id.length > 128) return undefined;
    const key = keyOf(id);
    const s = this.sessions.get(key);
    if (s === undefined) return undefined;
    const at = this.now();
    if (this.expired(s, at)) {
      this.sessions.delete(key);
      return undefined;
    }
    s.lastSeen = at;
    return s;
  }

  close(id: string | undefined): void {
    if (id !== undefined) this.sessions.delete(keyOf(id));
  }

  /** Seconds the cookie should live: the absolute limit (the idle limit is enforced here). */
  get cookieSeconds(): number {
    return Math.floor(this.limits.maxAgeMs / 1000);
  }

  get size(): number {
    return this.sessions.size;
  }

  private expired(s: Session, at: number): boolean {
    return at - s.lastSeen > this.limits.idleMs || at - s.created > this.limits.maxAgeMs;
  }

  private sweep(): void {
    const at = this.now();
    for (const [k, s] of this.sessions) if (this.expired(s, at)) this.sessions.delete(k);
  }
}
