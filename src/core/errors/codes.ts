// The one table of error codes for every tool family and face. Each code says what it means, whether
// the same call may succeed later unchanged (retryable), which call usually helps next, and, for
// codes raised by the shared engine in its own finer terms (the guard, hashes, batch size), the
// code the boundary family presents them as (the finer code is kept in `details.reason`).
// docs/errors.md is generated from this table and a test keeps the two equal.

export interface CodeInfo {
  /** One line for people. */
  readonly meaning: string;
  /** Default of HashlineError.retryable. */
  readonly retryable: boolean;
  /** The call that usually helps next (boundary `suggestedNextCall`). */
  readonly next?: string;
  /** The boundary family shows this code instead (the original goes to `details.reason`). */
  readonly boundary?: string;
  /** Raised only by the boundary family (listed in its section of the docs). */
  readonly boundaryOnly?: true;
}

const guard = { retryable: false, boundary: 'path_denied' } as const;

export const CODES = {
  // arguments and paths
  invalid_arguments: { meaning: "the request does not match the tool's input schema", retryable: false },
  pattern_unsupported: { meaning: 'a regular expression or glob uses a feature that cannot run in linear time (lookaround, back-reference)', retryable: false },
  batch_limit: { meaning: 'a batch names fewer than 1 or more than 50 files', retryable: false },
  invalid_path: { meaning: 'the path is empty, holds a NUL byte, a `~`, a backslash or another refused form', ...guard },
  path_outside_root: { meaning: 'the path resolves outside the project root and is not allow-listed', ...guard },
  path_blocked: { meaning: 'the path is under a block-listed entry or is protected (the configuration file)', ...guard },
  path_conflict: { meaning: 'the path is in both the block list and the allow list', ...guard },
  symlink_escape: { meaning: 'a symbolic link leads outside the permitted scope', ...guard },
  link_swapped: { meaning: 'what was opened is not what was checked (a link was swapped in)', ...guard },
  path_denied: { meaning: 'the path is refused by the guard (outside the root, blocked, protected or reached through a link)', retryable: false, boundaryOnly: true },
  not_found: { meaning: 'the file or directory does not exist', retryable: false, next: 'file_capabilities' },
  is_directory: { meaning: 'a file was expected, a directory was found', retryable: false },
  not_a_directory: { meaning: 'a directory was expected', retryable: false },
  not_regular_file: { meaning: 'the path is not a regular file (device, fifo, socket), or is a symbolic link a boundary tool would change through', retryable: false },
  already_exists: { meaning: 'the destination already exists', retryable: false },
  io_error: { meaning: 'the operating system refused the operation', retryable: false },
  too_large: { meaning: 'the input or the file exceeds a size limit', retryable: false },
  invalid_range: { meaning: 'a line range or window is malformed', retryable: false },
  config_invalid: { meaning: 'the configuration file does not parse or breaks its schema', retryable: false },

  // the hashline edit DSL and its tags
  edit_parse_error: { meaning: 'the edit operations do not parse', retryable: false },
  edit_out_of_range: { meaning: 'an edit anchors on a line that does not exist', retryable: false, next: 'fs_read' },
  edit_overlap: { meaning: 'two edits touch the same lines', retryable: false },
  edit_rejected: { meaning: 'the file changed since it was read and no safe merge exists', retryable: false, next: 'fs_read' },
  tag_missing: { meaning: 'no content tag was given for an edit', retryable: false, next: 'fs_read' },
  tag_malformed: { meaning: 'the content tag is not 4 hexadecimal digits', retryable: false, next: 'fs_read' },
  tag_unknown: { meaning: 'the content tag is not from this session', retryable: false, next: 'fs_read' },
  stale_tag: { meaning: 'the content tag no longer matches the file', retryable: false, next: 'fs_read' },
  generated_file: { meaning: 'the file is marked as machine-generated', retryable: false },
  empty_text: { meaning: 'the text to write is empty', retryable: false },
  non_utf8_line: { meaning: 'the edit touches a line that is not valid UTF-8', retryable: false },
  no_change: { meaning: 'the edit made no change', retryable: false },
  pattern_error: { meaning: 'a structural pattern does not parse', retryable: false },
  unsupported_language: { meaning: 'no grammar is available for the file', retryable: false, next: 'file_capabilities' },

  // rollback history
  history_missing: { meaning: 'no rollback history for the path', retryable: false },
  version_not_found: { meaning: 'the version is not in the rollback history', retryable: false },
  already_at_version: { meaning: 'the file is already at that version', retryable: false },
  no_previous_version: { meaning: 'there is no earlier version to restore', retryable: false },
  modified_externally: { meaning: 'the file holds a text the history does not know (changed outside hashline)', retryable: false },

  // compare-and-swap batches (the boundary family)
  stale_or_missing_hash: { meaning: 'an expectedSha256 is missing where one is required, or does not match the file (details.reason: missing, mismatch, unexpected)', retryable: true, next: 'file_hash' },
  rollback_incomplete: { meaning: 'a failed batch could not be fully rolled back; the affected paths are listed', retryable: false, next: 'file_hash' },
  lock_timeout: { meaning: 'another process holds the file lock', retryable: true },
  aborted: { meaning: 'the operation was cancelled; what it did was rolled back', retryable: true },

  // file_read and documents
  read_mode_unavailable: { meaning: 'the requested read mode is not available for this file or is excluded by configuration', retryable: false, next: 'file_capabilities', boundaryOnly: true },
  document_format_unsupported: { meaning: 'selectors work on JSON, JSONC, TOML and YAML files only', retryable: false, next: 'file_read', boundaryOnly: true },
  document_source_too_large: { meaning: 'the document is too large to parse for selectors', retryable: false, next: 'file_read', boundaryOnly: true },
  document_result_too_large: { meaning: 'the selected values exceed the result limit; select less', retryable: true, next: 'file_read', boundaryOnly: true },
  invalid_document_selector: { meaning: 'a selector is not an RFC 6901 JSON Pointer', retryable: true, boundaryOnly: true },
  document_parse_error: { meaning: 'the document does not parse, so selectors cannot be applied', retryable: false, next: 'file_read', boundaryOnly: true },

  // file_patch
  patch_strategy_required: { meaning: 'a patch needs an explicit patchStrategy (ast or aider_block)', retryable: false, next: 'file_capabilities', boundaryOnly: true },
  patch_strategy_unavailable: { meaning: 'the strategy is excluded by configuration or not supported for this file', retryable: false, next: 'file_capabilities', boundaryOnly: true },
  patch_strategy_arguments: { meaning: 'the operations do not fit the strategy (astRules for ast, aiderBlocks for aider_block)', retryable: false, boundaryOnly: true },
  aider_no_match: { meaning: 'a search block matches nowhere in the file, not even approximately', retryable: true, next: 'file_read', boundaryOnly: true },
  aider_ambiguous: { meaning: 'a search block matches more than one region equally well', retryable: true, next: 'file_read', boundaryOnly: true },
  aider_matcher_disabled: { meaning: 'every matcher that could place the block is disabled by configuration', retryable: false, next: 'file_capabilities', boundaryOnly: true },
  ast_match_count: { meaning: 'an AST rule matched a different number of nodes than expected', retryable: true, next: 'file_read', boundaryOnly: true },
  ast_rewrite_cardinality: { meaning: 'an AST rule expects other than one match, which a rewrite cannot place unambiguously', retryable: false, boundaryOnly: true },
  ast_capability_unavailable: { meaning: 'no grammar is available for the file, so AST patches cannot run', retryable: false, next: 'file_capabilities', boundaryOnly: true },
  candidate_parse_error: { meaning: 'the patched text would not parse where the original did (not checked for SQL: its policy decides)', retryable: false, next: 'file_read', boundaryOnly: true },
  format_failed: { meaning: 'the configured formatter failed or is missing; nothing was written', retryable: false, boundaryOnly: true },
  preview_receipt_invalid: { meaning: 'the preview receipt is unknown, used, or bound to another file, session, source or configuration', retryable: false, next: 'file_patch', boundaryOnly: true },
  preview_receipt_expired: { meaning: 'the preview receipt expired', retryable: false, next: 'file_patch', boundaryOnly: true },
  preview_receipt_in_use: { meaning: 'the preview receipt is being committed by another call', retryable: false, boundaryOnly: true },
  preview_receipt_limit: { meaning: 'too many or too large outstanding previews in this session', retryable: true, boundaryOnly: true },
  sql_validation_failed: { meaning: 'required SQL validation found the candidate invalid', retryable: false, next: 'file_read', boundaryOnly: true },
  sql_validation_unavailable: { meaning: 'SQL validation could not run (queue full, deadline, unsupported dialect)', retryable: true, boundaryOnly: true },

  // file_rename, file_chattr, file_delete
  file_referenced: { meaning: 'other files import a file the batch deletes (forceReferences: true overrides)', retryable: false, boundaryOnly: true },
  reference_scan_incomplete: { meaning: 'the reference scan could not be proven complete (forceReferences: true overrides)', retryable: false, boundaryOnly: true },
  reference_verification_failed: { meaning: 'the reference scan cannot verify: AST reads are excluded by configuration, or files that could import the target are read-blocked (forceReferences: true overrides)', retryable: false, boundaryOnly: true },
  chattr_refused: { meaning: 'a mode or owner change outside what is permitted (setuid, setgid, sticky, another owner)', retryable: false, boundaryOnly: true },

  // HTTP
  unauthorized: { meaning: 'missing or wrong bearer token', retryable: false },
  forbidden: { meaning: 'the request is not allowed', retryable: false },
  malformed_body: { meaning: 'the request body is malformed or truncated', retryable: false },
  request_timeout: { meaning: 'the request body stalled, or did not arrive in time', retryable: true },
  insufficient_storage: { meaning: 'the target file system is below its free-space reserve', retryable: true },
  tar_member_refused: { meaning: 'a tar member breaks the extraction rules (escape, link out, device)', retryable: false },
  too_many_attempts: { meaning: 'too many failed console logins from this address; wait before trying again', retryable: true },
  history_unavailable: { meaning: 'the history is kept in memory or off, so it has nothing to query (the console and `hashline history` need the durable store)', retryable: false },

  execution_failed: { meaning: 'the operation failed for a reason not listed here', retryable: false, boundaryOnly: true },
  internal: { meaning: 'an unexpected internal failure', retryable: false, boundary: 'execution_failed' },
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof CODES;

export function codeInfo(code: ErrorCode): CodeInfo {
  return CODES[code];
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(CODES, value);
}
