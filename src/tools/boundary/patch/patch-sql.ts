// SQL validation of a file_patch candidate, per entry: `sql: {policy?, dialect?, version?,
// variant?}` over the `[sql]` defaults (core/sql/sql-selection.ts decides). No selection and no required
// default means no parser call; `skip` turns it off; advisory never blocks and reports what the
// validator found; required lets only a valid result through (`sql_validation_failed` with line and
// column, or `sql_validation_unavailable`). The candidate goes to the one SQL worker
// (io/sql/sql-worker.ts, engine.sql); a batch's checks run one after another, before anything is written.

import { HashlineError, toHashlineError } from '../../../core/errors/errors.js';
import { resolveSqlSelection, sqlOutcome, type SqlOutcome, type SqlResult, type SqlSelection } from '../../../core/sql/sql-selection.js';
import type { Engine } from '../../engine.js';

export type { SqlOutcome };

export async function checkSql(engine: Engine, display: string, selection: SqlSelection | undefined, text: string, signal: AbortSignal): Promise<SqlOutcome | undefined> {
  const plan = resolveSqlSelection(selection, engine.configState().settings.sql);
  if (plan.policy === 'skip') return undefined;
  let got: SqlResult | HashlineError | undefined;
  if (plan.run) {
    const validator = engine.sql;
    if (validator === undefined) got = new HashlineError('sql_validation_unavailable', 'this engine has no SQL validator', { retryable: false });
    else {
      try {
        got = await validator.validate(text, { dialect: plan.dialect, version: plan.version, variant: plan.variant }, { signal });
      } catch (e) {
        got = toHashlineError(e);
      }
    }
  }
  return sqlOutcome(plan, got, display);
}
