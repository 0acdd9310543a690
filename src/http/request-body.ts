// Request bodies as streams with a byte limit: the limit is checked against Content-Length before
// reading and against the bytes actually received while reading, so an oversized body is refused
// (413) without ever being held or landing on disk.

import type { IncomingMessage } from 'node:http';
import { HashlineError } from '../core/errors.js';
import { bodyTooLarge, MALFORMED_BODY } from '../core/messages/http.js';

export function tooLarge(limit: number): HashlineError {
  return new HashlineError('too_large', bodyTooLarge(limit), { details: { limit } });
}

/** Refuses up front when the declared length is over the limit. */
export function assertDeclaredLength(req: IncomingMessage, limit: number): void {
  const raw = req.headers['content-length'];
  if (raw !== undefined && /^[0-9]+$/.test(raw) && Number(raw) > limit) throw tooLarge(limit);
}

/**
 * Yields the body's chunks, throwing `too_large` past `limit` bytes and `malformed_body` when the
 * client goes away before the body ends. `onChunk` sees the running total (for disk checks).
 */
export async function* limitedBody(
  req: IncomingMessage,
  limit: number,
  onChunk?: (total: number) => Promise<void> | void,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) throw tooLarge(limit);
      if (onChunk) await onChunk(total);
      yield chunk;
    }
  } catch (e) {
    if (e instanceof HashlineError) throw e;
    throw new HashlineError('malformed_body', MALFORMED_BODY, { cause: e });
  }
  if (req.readableAborted || (req as { aborted?: boolean }).aborted === true || !req.complete) {
    throw new HashlineError('malformed_body', MALFORMED_BODY);
  }
}

/** Reads a whole (small) body into memory, within `limit`. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  assertDeclaredLength(req, limit);
  const parts: Uint8Array[] = [];
  for await (const chunk of limitedBody(req, limit)) parts.push(chunk);
  return Buffer.concat(parts);
}
