// The boundary family's reply envelope: `{ ok: true, data }` or `{ ok: false, error }`, the error
// carrying its code (as the boundary family names it: see core/errors/codes.ts), message, retryable flag,
// details and the call that usually helps next.

import { CODES, type CodeInfo } from './codes.js';
import type { HashlineError } from './errors.js';

export interface EnvelopeError {
  code: string;
  message: string;
  retryable: boolean;
  details?: Record<string, unknown>;
  suggestedNextCall?: string;
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: EnvelopeError };

export function okEnvelope<T>(data: T): { ok: true; data: T } {
  return { ok: true, data };
}

/**
 * The error as the boundary family reports it: finer engine codes become the family's own, kept in
 * `details.reason`. An error about a file names it in `details.filePath`: `filePath` (the entry of a
 * batch) when the error does not name it already.
 */
export function boundaryError(e: HashlineError, filePath?: string): EnvelopeError {
  const info: CodeInfo = CODES[e.code];
  const shown = info.boundary ?? e.code;
  const named = e.details?.filePath ?? filePath;
  const withFile = typeof named === 'string' && e.details?.filePath === undefined ? { ...(e.details ?? {}), filePath: named } : e.details;
  const details = shown === e.code ? withFile : { ...(withFile ?? {}), reason: e.code };
  const next = e.suggestedNextCall ?? (CODES[shown as keyof typeof CODES] as CodeInfo | undefined)?.next;
  return {
    code: shown,
    message: e.message,
    retryable: e.retryable,
    ...(details === undefined ? {} : { details }),
    ...(next === undefined ? {} : { suggestedNextCall: next }),
  };
}

export function errorEnvelope(e: HashlineError): { ok: false; error: EnvelopeError } {
  return { ok: false, error: boundaryError(e) };
}
