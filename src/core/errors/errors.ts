// The one error class of hashline. Codes come from the one table in core/errors/codes.ts: codes are the
// contract (tests and adapters match on them); messages are for people.

import { CODES, type ErrorCode } from './codes.js';

export { CODES, type ErrorCode } from './codes.js';

/** The codes and what each means (the table's `meaning` column). */
export const ERROR_CODES: Readonly<Record<ErrorCode, string>> = Object.freeze(
  Object.fromEntries(Object.entries(CODES).map(([code, info]) => [code, info.meaning])) as Record<ErrorCode, string>,
);

export interface HashlineErrorOptions {
  /** Machine-readable facts about the failure (paths, tags, positions). */
  details?: Record<string, unknown>;
  /** True when the same call may succeed later without a change (a lock, a race). Default: the table's. */
  retryable?: boolean;
  /** The call that usually helps next. Default: the table's. */
  suggestedNextCall?: string;
  cause?: unknown;
}

export class HashlineError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryable: boolean;
  readonly suggestedNextCall: string | undefined;

  constructor(code: ErrorCode, message: string, options: HashlineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HashlineError';
    this.code = code;
    this.details = options.details;
    const info = CODES[code] as { retryable: boolean; next?: string } | undefined;
    this.retryable = options.retryable ?? info?.retryable ?? false;
    this.suggestedNextCall = options.suggestedNextCall ?? info?.next;
  }
}

export function isHashlineError(value: unknown): value is HashlineError {
  return value instanceof HashlineError;
}

/**
 * An operating-system error as `CODE: description`, without the paths Node writes into its message
 * (`ENAMETOOLONG: name too long, lstat '/abs/path'`): error text never carries an absolute path
 * the caller did not give. Other errors give their message.
 */
export function errnoText(value: unknown): string {
  if (!(value instanceof Error)) return String(value);
  const { code, syscall } = value as Error & { code?: unknown; syscall?: unknown };
  if (typeof code !== 'string' || typeof syscall !== 'string') return value.message;
  const cut = value.message.indexOf(`, ${syscall}`);
  return cut > 0 ? value.message.slice(0, cut) : code;
}

/** Wraps anything thrown into a HashlineError, keeping codes that are already there (an OS error's message loses its paths). */
export function toHashlineError(value: unknown): HashlineError {
  if (value instanceof HashlineError) return value;
  // an operating-system error (EPERM, ENOSPC ...) is io_error in every tool, with its errno
  const errno = osErrno(value);
  if (errno !== undefined) return new HashlineError('io_error', errnoText(value), { details: { errno }, cause: value });
  return new HashlineError('internal', errnoText(value), { cause: value });
}

/** `{ errno }` of an operating-system error, for the details of the io_error that words it; `{}` otherwise. */
export function errnoDetails(value: unknown): { errno?: string } {
  const errno = osErrno(value);
  return errno === undefined ? {} : { errno };
}

/** The errno code (`EPERM` ...) of an operating-system error, or undefined. */
export function osErrno(value: unknown): string | undefined {
  if (!(value instanceof Error)) return undefined;
  const { code, syscall } = value as Error & { code?: unknown; syscall?: unknown };
  return typeof code === 'string' && typeof syscall === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}
