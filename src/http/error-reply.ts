// Maps coded errors to HTTP statuses and sends them as text/plain, the code in a header so the
// client can rebuild the same HashlineError.

import type { FastifyReply } from 'fastify';
import { type ErrorCode, toHashlineError } from '../core/errors/errors.js';

export const ERROR_CODE_HEADER = 'hashline-error-code';

const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_arguments: 400,
  invalid_path: 400,
  invalid_range: 400,
  is_directory: 400,
  not_a_directory: 400,
  not_regular_file: 400,
  malformed_body: 400,
  tar_member_refused: 400,
  unauthorized: 401,
  path_outside_root: 403,
  path_blocked: 403,
  path_conflict: 403,
  symlink_escape: 403,
  link_swapped: 403,
  forbidden: 403,
  not_found: 404,
  history_missing: 404,
  version_not_found: 404,
  already_at_version: 409,
  no_previous_version: 409,
  modified_externally: 409,
  request_timeout: 408,
  too_large: 413,
  too_many_attempts: 429,
  lock_timeout: 503,
  history_unavailable: 503,
  insufficient_storage: 507,
};

export function statusForCode(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}

/** The code a client assumes for a status when the server did not name one. */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400: return 'invalid_arguments';
    case 401: return 'unauthorized';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 408: return 'request_timeout';
    case 413: return 'too_large';
    case 503: return 'lock_timeout';
    case 507: return 'insufficient_storage';
    default: return 'internal';
  }
}

export function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const e = toHashlineError(error);
  const status = statusForCode(e.code);
  if (status >= 500 && e.code !== 'insufficient_storage' && e.code !== 'lock_timeout') {
    reply.log.error({ err: error }, 'request failed');
  }
  return reply.code(status).header(ERROR_CODE_HEADER, e.code).type('text/plain; charset=utf-8').send(e.message);
}
