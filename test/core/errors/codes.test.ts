// The table of error codes: a refusal of what the request itself says (its arguments, its patch,
// its SQL) is not retryable, and no such code suggests the call that was just refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeInfo, type ErrorCode } from '../../../src/core/errors/codes.js';

// The same call, unchanged, fails again whatever happens on disk: retrying it loops.
const REQUEST_REFUSALS: ErrorCode[] = [
  'invalid_arguments',
  'patch_strategy_required',
  'patch_strategy_arguments',
  'candidate_parse_error',
  'sql_validation_failed',
  'edit_parse_error',
  'edit_overlap',
  'pattern_error',
  'ast_rewrite_cardinality',
];

test('refusals of the request itself are not retryable and do not suggest repeating the refused call', () => {
  for (const code of REQUEST_REFUSALS) {
    const info = codeInfo(code);
    assert.equal(info.retryable, false, code);
  }
  assert.equal(codeInfo('candidate_parse_error').next, 'file_read');
  assert.equal(codeInfo('sql_validation_failed').next, 'file_read');
});
