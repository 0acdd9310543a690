// Size limits and timeouts of the HTTP file API (spec/http.md, "Limits"), validated once and frozen.

import { HashlineError } from '../core/errors/errors.js';

export interface HttpLimits {
  /** Largest request body of PUT /v1/fs/file and PUT /v1/fs/tar (413 above). */
  readonly maxBodyBytes: number;
  /** Free space a write must leave on the target file system (507 below). */
  readonly diskReserveBytes: number;
  /** Most members one tar may hold, packed or extracted (413 above). */
  readonly maxTarMembers: number;
  /** Most uncompressed bytes one tar may hold (413 above). */
  readonly maxTarBytes: number;
  /** Most concurrent MCP sessions on /mcp; past it an idle one is closed for a new one, else the new one gets 429. */
  readonly maxMcpSessions: number;
  /** A session unused this long (no request in flight, none for this long) may be closed for a new one. */
  readonly mcpSessionIdleMs: number;
  /** A request body with no byte for this long is refused (408); 0: no limit. */
  readonly bodyIdleTimeoutMs: number;
  /** A request body must arrive whole within this long (408); 0: no limit. */
  readonly requestTimeoutMs: number;
  /** A write waits at most this long for its path's lock, in this process or another (503 `lock_timeout`). */
  readonly lockTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = Object.freeze({
  maxBodyBytes: 512 * 1024 * 1024,
  diskReserveBytes: 256 * 1024 * 1024,
  maxTarMembers: 100_000,
  maxTarBytes: 8 * 1024 * 1024 * 1024,
  maxMcpSessions: 64,
  mcpSessionIdleMs: 15 * 60_000,
  bodyIdleTimeoutMs: 30_000,
  requestTimeoutMs: 10 * 60_000,
  lockTimeoutMs: 10_000,
});

export function resolveLimits(partial: Partial<HttpLimits> = {}): HttpLimits {
  const out = { ...DEFAULT_HTTP_LIMITS };
  for (const [k, v] of Object.entries(partial) as Array<[keyof HttpLimits, number | undefined]>) {
    if (v === undefined) continue;
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new HashlineError('invalid_arguments', `limit ${k} must be a non-negative integer, got ${v}`);
    }
    out[k] = v;
  }
  return Object.freeze(out);
}
