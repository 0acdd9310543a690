// SQL validation of a file_patch candidate, per entry: `sql: {policy?, dialect?, version?,
// variant?}`. No selection means no validation; `skip` turns it off; `advisory` (the default of a
// selection) never blocks and reports what it found; `required` lets only a valid result through.
// The validator (PostgreSQL 18 through libpg-query in one worker, io/sql-worker.ts) is built on its
// own branch: until it is merged here, validation reports itself unavailable: an advisory result
// says so and a required one is refused with `sql_validation_unavailable` before anything is written.

import { HashlineError } from '../core/errors.js';
import type { SqlSelection } from './patch-plan.js';

export interface SqlOutcome {
  readonly policy: 'advisory' | 'required';
  readonly dialect?: string;
  readonly version?: string;
  readonly variant?: string;
  readonly status: 'valid' | 'invalid' | 'unavailable';
  readonly diagnostics: ReadonlyArray<{ message: string; line?: number; column?: number }>;
}

export function checkSql(display: string, selection: SqlSelection | undefined): SqlOutcome | undefined {
  if (selection === undefined || selection.policy === 'skip') return undefined;
  const policy = selection.policy ?? 'advisory';
  const sel = {
    ...(selection.dialect === undefined ? {} : { dialect: selection.dialect }),
    ...(selection.version === undefined ? {} : { version: selection.version }),
    ...(selection.variant === undefined ? {} : { variant: selection.variant }),
  };
  if (policy === 'required') {
    throw new HashlineError('sql_validation_unavailable', `required SQL validation of \`${display}\` cannot run: this build has no SQL validator; use policy "advisory" or "skip"`, {
      details: { filePath: display, policy, ...sel },
      retryable: true,
    });
  }
  return { policy, ...sel, status: 'unavailable', diagnostics: [{ message: 'SQL validation is not available in this build' }] };
}
