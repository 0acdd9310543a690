// Request bodies as streams with a byte limit and two clocks: the limit is checked against
// Content-Length before reading and against the bytes actually received while reading, so an
// oversized body is refused (413) without ever being held or landing on disk; a body that stalls
// (no byte for `idleMs`) or takes longer than `totalMs` is refused (408), so a client that
// declares 100 bytes, sends 5 and goes quiet ties up nothing for long.

import type { IncomingMessage } from 'node:http';
import { HashlineError } from '../../core/errors/errors.js';
import { bodyStalled, bodyTooLarge, bodyTooSlow, MALFORMED_BODY } from '../../core/messages/http.js';

export interface BodyLimits {
  /** Most bytes (413 above). */
  limit: number;
  /** Longest wait for the next chunk, in ms; 0 or absent: none. */
  idleMs?: number;
  /** Longest time for the whole body, from the first read, in ms; 0 or absent: none. */
  totalMs?: number;
}

export function tooLarge(limit: number): HashlineError {
  return new HashlineError('too_large', bodyTooLarge(limit), { details: { limit } });
}

/** The body length the client declared, or undefined (chunked, or no valid Content-Length). */
export function declaredLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  return raw !== undefined && /^[0-9]+$/.test(raw) ? Number(raw) : undefined;
}

/** Refuses up front when the declared length is over the limit. */
export function assertDeclaredLength(req: IncomingMessage, limit: number): void {
  const n = declaredLength(req);
  if (n !== undefined && n > limit) throw tooLarge(limit);
}

/** True for the refusal of a stalled or slow body (the connection is then closed, not drained). */
export function isBodyTimeout(e: unknown): boolean {
  return e instanceof HashlineError && e.code === 'request_timeout';
}

/** setTimeout's longest delay; a longer clock is as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Yields the body's chunks, throwing `too_large` past the limit, `request_timeout` when the body
 * stalls or is too slow, and `malformed_body` when the client goes away before the body ends.
 * Reads with `read()` on `readable` events and removes its listeners on every exit, so a caller
 * that stops early can still drain the rest (`req.resume()`) or close the connection.
 */
export async function* limitedBody(req: IncomingMessage, limits: BodyLimits): AsyncGenerator<Uint8Array> {
  const idle = limits.idleMs ? limits.idleMs : Infinity;
  const total = limits.totalMs ? limits.totalMs : Infinity;
  const deadline = Date.now() + total;
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: unknown;
  const poke = () => wake?.();
  const onEnd = () => ((ended = true), poke());
  const onError = (e: unknown) => ((failure ??= e), poke());
  req.on('readable', poke).on('end', onEnd).on('close', onEnd).on('error', onError);
  let received = 0;
  try {
    for (;;) {
      let chunk: Buffer | null;
      while ((chunk = req.read() as Buffer | null) !== null) {
        received += chunk.length;
        if (received > limits.limit) throw tooLarge(limits.limit);
        yield chunk;
      }
      failure ??= req.errored ?? undefined;
      if (failure !== undefined) throw failure;
      // (events that came before the first read are seen in the stream's state)
      if (ended || req.readableEnded || req.destroyed) break;
      const left = deadline - Date.now();
      const stalledFirst = idle < left;
      const wait = Math.min(idle, left);
      if (wait <= 0) throw new HashlineError('request_timeout', bodyTooSlow(total), { details: { totalMs: total }, retryable: true });
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await new Promise<boolean>((resolve) => {
        wake = () => resolve(false);
        if (Number.isFinite(wait)) timer = setTimeout(() => resolve(true), Math.min(wait, MAX_TIMER_MS));
      });
      clearTimeout(timer);
      wake = undefined;
      if (timedOut && req.readableLength === 0 && !ended && failure === undefined) {
        throw stalledFirst
          ? new HashlineError('request_timeout', bodyStalled(idle), { details: { idleMs: idle }, retryable: true })
          : new HashlineError('request_timeout', bodyTooSlow(total), { details: { totalMs: total }, retryable: true });
      }
    }
  } catch (e) {
    if (e instanceof HashlineError) throw e;
    throw new HashlineError('malformed_body', MALFORMED_BODY, { cause: e });
  } finally {
    req.off('readable', poke).off('end', onEnd).off('close', onEnd).off('error', onError);
  }
  if (req.readableAborted || (req as { aborted?: boolean }).aborted === true || !req.complete) {
    throw new HashlineError('malformed_body', MALFORMED_BODY);
  }
}

/** Reads a whole (small) body into memory, within the limits. */
export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  assertDeclaredLength(req, limits.limit);
  const parts: Uint8Array[] = [];
  for await (const chunk of limitedBody(req, limits)) parts.push(chunk);
  return Buffer.concat(parts);
}
