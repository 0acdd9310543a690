// The one error class of hashline and the table of its stable codes.
// Codes are the contract (tests and adapters match on them); messages are for people.

export const ERROR_CODES = {
  invalid_arguments: "the request does not match the tool's input schema",
  invalid_path: "the path is empty, holds a NUL byte, a `~`, a backslash or another refused form",
  path_outside_root: 'the path resolves outside the project root and is not allow-listed',
  path_blocked: 'the path is under a block-listed entry',
  path_conflict: 'the path is in both the block list and the allow list',
  symlink_escape: 'a symbolic link leads outside the permitted scope',
  link_swapped: 'what was opened is not what was checked (a link was swapped in)',
  not_found: 'the file or directory does not exist',
  is_directory: 'a file was expected, a directory was found',
  not_a_directory: 'a directory was expected',
  not_regular_file: 'the path is not a regular file (device, fifo, socket)',
  io_error: 'the operating system refused the operation',
  too_large: 'the input or the file exceeds a size limit',
  batch_too_large: 'too many files in one batch',
  invalid_range: 'a line range or window is malformed',
  edit_parse_error: 'the edit operations do not parse',
  edit_out_of_range: 'an edit anchors on a line that does not exist',
  edit_overlap: 'two edits touch the same lines',
  edit_rejected: 'the file changed since it was read and no safe merge exists',
  tag_missing: 'no content tag was given for an edit',
  tag_unknown: 'the content tag is not from this session',
  stale_tag: 'the content tag no longer matches the file',
  hash_mismatch: 'the SHA-256 given does not match the file',
  hash_required: 'a fresh SHA-256 of the file is required for this change',
  already_exists: 'the destination already exists',
  receipt_invalid: 'the preview receipt is unknown, used, or bound to another candidate',
  receipt_expired: 'the preview receipt expired',
  receipt_in_use: 'the preview receipt is being committed by another call',
  rollback_incomplete: 'a failed batch could not be fully rolled back',
  generated_file: 'the file is marked as machine-generated',
  empty_text: 'the text to write is empty',
  non_utf8_line: 'the edit touches a line that is not valid UTF-8',
  no_change: 'the edit made no change',
  pattern_error: 'a structural pattern does not parse',
  unsupported_language: 'no grammar is available for the file',
  history_missing: 'no rollback history for the path',
  version_not_found: 'the version is not in the rollback history',
  already_at_version: 'the file is already at that version',
  no_previous_version: 'there is no earlier version to restore',
  modified_externally: 'the file changed outside this session',
  lock_timeout: 'another process holds the file lock',
  aborted: 'the operation was cancelled',
  unauthorized: 'missing or wrong bearer token',
  forbidden: 'the request is not allowed',
  malformed_body: 'the request body is malformed or truncated',
  request_timeout: 'the request body stalled, or did not arrive in time',
  insufficient_storage: 'the target file system is below its free-space reserve',
  tar_member_refused: 'a tar member breaks the extraction rules (escape, link out, device)',
  internal: 'an unexpected internal failure',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface HashlineErrorOptions {
  /** Machine-readable facts about the failure (paths, tags, positions). */
  details?: Record<string, unknown>;
  /** True when the same call may succeed later without a change (a lock, a race). */
  retryable?: boolean;
  cause?: unknown;
}

export class HashlineError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: HashlineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HashlineError';
    this.code = code;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
  }
}

export function isHashlineError(value: unknown): value is HashlineError {
  return value instanceof HashlineError;
}

/** Wraps anything thrown into a HashlineError, keeping codes that are already there. */
export function toHashlineError(value: unknown): HashlineError {
  if (value instanceof HashlineError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new HashlineError('internal', message, { cause: value });
}
