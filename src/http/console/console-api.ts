// The console's JSON endpoints and its event stream, under /console/api/. Reads need a session
// (or an open console); the rollback needs the console's own origin, a session and its CSRF
// token. Every endpoint that could carry content asks the read policy per entry (version-reader.ts).
// Without a durable history (memory, off) they answer 503 `history_unavailable` with a plain
// sentence, which /console/api/session also gives for the page to show.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HashlineError } from '../../core/errors/errors.js';
import type { HistoryQuery } from '../../core/history/history-store.js';
import { historyUnavailable, JSON_BODY_REQUIRED } from '../../core/messages/console.js';
import type { Engine } from '../../tools/engine.js';
import { VERSION } from '../../version.js';
import { readBody } from '../file/request-body.js';
import type { ConsoleAuth } from './auth/console-auth.js';
import { rollbackToVersion } from './console-rollback.js';
import { EventStream } from './event-stream.js';
import { type FeedFilter, feedFilter, FeedFollower } from './feed-follower.js';
import { guardView } from './guard-view.js';
import { historyKeyOf } from './path-filter.js';
import { VersionReader } from './version-reader.js';

type Query = Record<string, string | undefined>;

const ID = { type: 'string', pattern: '^[0-9]{1,15}$' };
const TEXT = (max: number) => ({ type: 'string', minLength: 1, maxLength: max });
const strict = (properties: Record<string, unknown>, required: string[] = []) => ({
  querystring: { type: 'object', properties, required, additionalProperties: false },
});
const FILTERS = { client: TEXT(512), tool: TEXT(128), path: TEXT(4096) };

export interface ConsoleApiOptions {
  /** Milliseconds between two looks at the store's change stamp while someone watches the feed. */
  pollMs?: number;
  /** Body clocks for the rollback's small JSON body. */
  bodyIdleTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface ConsoleApi {
  /** Ends the event streams and stops following the store. */
  close(): void;
}

const int = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

export function registerConsoleApi(app: FastifyInstance, engine: Engine, auth: ConsoleAuth, options: ConsoleApiOptions): ConsoleApi {
  const query = engine.history.query;
  const reader = query === undefined ? undefined : new VersionReader(engine, query);
  const status = engine.history.status();
  const pollMs = options.pollMs ?? (status.backend === 'postgres' ? 250 : 50);
  const follower =
    query === undefined || reader === undefined
      ? undefined
      : new FeedFollower(query, reader, pollMs, (e) => app.log.warn({ err: e }, 'console feed poll failed'));
  const streams = new Set<EventStream>();

  const need = (): { query: HistoryQuery; reader: VersionReader; follower: FeedFollower } => {
    if (query === undefined || reader === undefined || follower === undefined) {
      const s = engine.history.status();
      throw new HashlineError('history_unavailable', historyUnavailable(s.backend, s.warning));
    }
    return { query, reader, follower };
  };
  const filterOf = (q: Query): FeedFilter => ({
    client: q.client,
    tool: q.tool,
    path: q.path === undefined ? undefined : historyKeyOf(engine.guard, q.path),
  });

  app.get('/console/api/session', async (request, reply) => {
    const session = auth.session(request) ?? (auth.open ? auth.start(request, reply) : undefined);
    if (session === undefined) auth.requireRead(request);
    const s = engine.history.status();
    return {
      csrf: session!.csrf,
      open: auth.open,
      root: engine.guard.root,
      version: VERSION,
      history: { ...s, queryable: query !== undefined, ...(query === undefined ? { message: historyUnavailable(s.backend, s.warning) } : {}) },
    };
  });

  app.get('/console/api/feed', { schema: strict({ before: ID, limit: ID, ...FILTERS }) }, async (request) => {
    auth.requireRead(request);
    const { query: hq, reader: r } = need();
    const q = request.query as Query;
    const entries = await hq.feed({ ...feedFilter(filterOf(q)), ...(q.before ? { before: int(q.before)! } : {}), limit: Math.min(int(q.limit) ?? 100, 500) });
    const [top] = await hq.feed({ limit: 1 });
    return { entries: await r.views(entries), newest: top?.id ?? 0 };
  });

  app.get('/console/api/events', { schema: strict({ after: ID, ...FILTERS }) }, async (request: FastifyRequest, reply: FastifyReply) => {
    auth.requireRead(request);
    const { follower: f } = need();
    const q = request.query as Query;
    const lastEventId = request.headers['last-event-id'];
    const after = int(q.after) ?? (typeof lastEventId === 'string' && /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : undefined);
    reply.hijack();
    const stream = new EventStream(request.raw, reply.raw, { 'hashline-version': VERSION });
    streams.add(stream);
    try {
      const stop = await f.watch(filterOf(q), after, (views) => stream.send('entries', views, views[views.length - 1]!.id));
      stream.onClose(() => {
        stop();
        streams.delete(stream);
      });
      stream.send('ready', { pollMs });
    } catch (e) {
      stream.send('failed', { message: (e as Error).message });
      stream.end();
      streams.delete(stream);
    }
    return reply;
  });

  app.get('/console/api/timeline', { schema: strict({ path: TEXT(4096), before: ID, limit: ID }, ['path']) }, async (request) => {
    auth.requireRead(request);
    const { query: hq, reader: r } = need();
    const q = request.query as Query;
    const real = historyKeyOf(engine.guard, q.path!.replace(/\/+$/, '') || '/');
    const limit = Math.min(int(q.limit) ?? 200, 1000);
    const entries = await hq.timeline(real, { ...(q.before ? { before: int(q.before)! } : {}), limit });
    // each version's predecessor is the next (older) entry of the page; the last one's is looked up
    const predecessors = new Map<number, (typeof entries)[number] | null>();
    entries.forEach((e, i) => {
      if (i + 1 < entries.length) predecessors.set(e.id, entries[i + 1]!);
    });
    return {
      path: engine.guard.display(real),
      readable: engine.guard.admitsReal(real, 'read'),
      entries: await r.views(entries, predecessors),
      more: entries.length === limit,
    };
  });

  app.get('/console/api/diff', { schema: strict({ id: ID }, ['id']) }, async (request) => {
    auth.requireRead(request);
    return need().reader.diff(int((request.query as Query).id)!);
  });

  app.post('/console/api/rollback', async (request) => {
    const session = auth.requireWrite(request);
    const { reader: r } = need();
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) throw new HashlineError('invalid_arguments', JSON_BODY_REQUIRED);
    const raw = await readBody(request.raw, { limit: 4096, idleMs: options.bodyIdleTimeoutMs, totalMs: options.requestTimeoutMs });
    let id: unknown;
    try {
      id = (JSON.parse(raw.toString('utf8')) as { id?: unknown }).id;
    } catch {
      throw new HashlineError('invalid_arguments', JSON_BODY_REQUIRED);
    }
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw new HashlineError('invalid_arguments', '`id` must be the positive integer id of a version');
    const controller = new AbortController();
    request.raw.once('close', () => {
      if (!request.raw.complete) controller.abort();
    });
    return rollbackToVersion(engine, r, { id, client: session.client, signal: controller.signal });
  });

  app.get('/console/api/guard', async (request) => {
    auth.requireRead(request);
    return guardView(engine);
  });

  return {
    close() {
      follower?.close();
      for (const s of streams) s.end();
      streams.clear();
    },
  };
}
